/**
 * The installed-app promises of the built product: Chromium's own installability check, an offline reload
 * that still shows the app, and a new version that waits for the user's agreement.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { startStack } from './support/stack.ts'
import { loginAsDemo, sandboxUserToken } from './support/login.ts'
import { chromiumArgs, testChromiumPath } from '../../scripts/chromium.ts'
import { controlledByServiceWorker } from './support/service-worker.ts'
import { NOTIFICATION_AUTO_CLOSE_MS } from '../../src/core/constants/limits.ts'

// The service worker is what this spec is about.
test.use({ serviceWorkers: 'allow' })

const loginOrApp = (page: Page) =>
  page.getByRole('button', { name: /Continue with Facebook/i }).or(page.getByTestId('app-layout'))

test('Chromium finds the built app installable', async ({ playwright, baseURL }) => {
  // Chromium never offers installation in an incognito context, which is what Playwright's contexts are.
  const profile = mkdtempSync(join(tmpdir(), 'pagecast-profile-'))
  const context = await playwright.chromium.launchPersistentContext(profile, {
    executablePath: testChromiumPath,
    args: chromiumArgs,
    baseURL,
  })
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    await page.goto('/')
    await controlledByServiceWorker(page)
    const cdp = await context.newCDPSession(page)
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[]
    }
    expect(installabilityErrors).toEqual([])
    const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as Record<
      string,
      unknown
    >
    expect(manifest).toMatchObject({ display: 'standalone', start_url: '/', id: '/', scope: '/' })
    const icons = manifest.icons as { purpose?: string }[]
    expect(icons.some((i) => i.purpose === 'maskable')).toBe(true)
    const screenshots = manifest.screenshots as { form_factor: string }[]
    expect(screenshots.map((s) => s.form_factor).sort()).toEqual(['narrow', 'wide'])
  } finally {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  }
})

test('a reload with the network cut still shows the app', async ({ page, context }) => {
  await page.goto('/')
  await controlledByServiceWorker(page)
  await expect(loginOrApp(page)).toBeVisible()
  await context.setOffline(true)
  await page.reload()
  await expect(loginOrApp(page)).toBeVisible()
  await page.goto('/some/deep/route')
  await expect(page.locator('#root')).not.toBeEmpty()
  await context.setOffline(false)
})

test('a signed-in user reloading offline sees the signed-in app, not an error page', async ({
  page,
  context,
}) => {
  await loginAsDemo(page)
  await controlledByServiceWorker(page)
  await context.setOffline(true)
  await page.reload()
  await expect(page.getByTestId('app-layout')).toBeVisible()
  await context.setOffline(false)
})

test('the service worker never stores API responses', async ({ page }) => {
  await page.goto('/')
  await controlledByServiceWorker(page)
  await page.evaluate(() => fetch('/api/v2/config').catch(() => undefined))
  const cached = await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys())
      for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname)
    return urls
  })
  expect(cached.length).toBeGreaterThan(0)
  expect(cached.filter((u) => u.startsWith('/api/'))).toEqual([])
})

test('a picture is cached once whatever access token its address carries', async ({ page, baseURL }) => {
  await loginAsDemo(page)
  await controlledByServiceWorker(page)
  // Two valid tokens of one owner, as before and after a token refresh.
  const tokens = [await sandboxUserToken(baseURL!), await sandboxUserToken(baseURL!)]
  expect(tokens[0]).not.toBe(tokens[1])
  const keys = await page.evaluate(async (tokens) => {
    const urls = tokens.map((t) => `/sandbox/graph/v25.0/4242/picture?type=normal&access_token=${t}`)
    for (const url of urls) await fetch(url).then((r) => r.arrayBuffer())
    const cache = await caches.open('pagecast-pictures-v1')
    // The stale-while-revalidate copies are written after the answers: wait until the cache stops changing.
    let count = -1
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 200))
      const now = (await cache.keys()).length
      if (now > 0 && now === count) break
      count = now
    }
    return (await cache.keys()).map((r) => r.url).filter((u) => u.includes('/4242/picture'))
  }, tokens)
  expect(keys).toHaveLength(1)
  expect(keys[0]).not.toContain('access_token')
})

test.describe('a new version', () => {
  // A copy of the build so this test can change sw.js on disk, as a deploy would.
  let dir: string
  test.beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pagecast-pwa-'))
    cpSync(process.env.STATIC_DIR ?? 'dist', dir, { recursive: true })
  })
  test.afterEach(() => rmSync(dir, { recursive: true, force: true }))

  test('waits for the user, then reloads the page under the new service worker', async ({ page }) => {
    const stack = await startStack({ STATIC_DIR: dir })
    try {
      await page.goto(stack.url)
      await controlledByServiceWorker(page)
      await expect(loginOrApp(page)).toBeVisible()
      appendFileSync(join(dir, 'sw.js'), `\n// deployed ${Date.now()}\n`)
      await page.evaluate(async () => {
        ;(window as { beforeUpdate?: boolean }).beforeUpdate = true
        await (await navigator.serviceWorker.getRegistration())!.update()
      })
      await expect(page.getByText('A new version is available')).toBeVisible()
      // Nothing takes over without the user's agreement.
      expect(
        await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())!.waiting),
      ).toBe(true)
      const reloaded = page.waitForEvent('load')
      await page.getByRole('button', { name: 'Reload' }).click()
      await reloaded
      await expect(loginOrApp(page)).toBeVisible()
      const after = await page.evaluate(async () => {
        const reg = (await navigator.serviceWorker.getRegistration())!
        return {
          marker: (window as { beforeUpdate?: boolean }).beforeUpdate ?? false,
          waiting: !!reg.waiting,
          controlled: !!navigator.serviceWorker.controller,
        }
      })
      expect(after).toEqual({ marker: false, waiting: false, controlled: true })
      await expect(page.getByText('A new version is available')).toBeHidden()
    } finally {
      await stack.stop()
    }
  })
})

test('the app warns a signed-in owner when the device is low on storage, below the header, until closed', async ({ page }) => {
  // A nearly full device, as the Storage API would report it (quota overrides do not apply to test contexts).
  await page.addInitScript(() => {
    const MB = 1024 * 1024
    navigator.storage.estimate = async () => ({ usage: 995 * MB, quota: 1000 * MB })
  })
  await page.goto('/')
  // The login screen has nothing saved to warn about.
  await expect(page.getByTestId('login-button')).toBeVisible()
  await expect(page.getByText('Storage on this device is almost full')).toBeHidden()
  await loginAsDemo(page, { path: null })
  const notice = page.getByRole('alert').filter({ hasText: 'Storage on this device is almost full' })
  await expect(notice).toBeVisible()
  // It covers nothing of the header (the available-messages counter is there).
  const header = await page.locator('header').first().boundingBox()
  const box = await notice.boundingBox()
  expect(box!.y).toBeGreaterThanOrEqual(header!.y + header!.height)
  // It stays past the notices that close by themselves, until the owner closes it.
  await page.waitForTimeout(NOTIFICATION_AUTO_CLOSE_MS + 500)
  await expect(notice).toBeVisible()
  await notice.getByRole('button', { name: 'Close' }).click()
  await expect(notice).toBeHidden()
})

test('the app says so when the browser cleared its saved data', async ({ page, context, baseURL }) => {
  // The marker cookie outlives an eviction; the marker row it vouches for is gone.
  await context.addCookies([
    { name: 'pagecast_storage_marker', value: '1', url: baseURL!, sameSite: 'Strict' },
  ])
  await loginAsDemo(page)
  await expect(
    page.getByRole('alert').filter({ hasText: "Your browser cleared this app's saved data" }),
  ).toBeVisible()
  await page.reload()
  await expect(loginOrApp(page)).toBeVisible()
  await expect(page.getByText("Your browser cleared this app's saved data")).toBeHidden()
})

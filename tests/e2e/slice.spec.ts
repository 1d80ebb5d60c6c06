/** The slice a new user walks through: login screen, sandbox dialog, terms gate, home with pages. */
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo, signOut } from './support/login.ts'
import { startStack } from './support/stack.ts'

test('a logged-out visitor sees only the login screen, on any route', async ({ page }) => {
  await page.goto('/affiliates')
  await expect(page.getByRole('button', { name: 'Continue with Facebook' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByTestId('app-layout')).toHaveCount(0)
})

test('granting every permission leads through the terms gate to the home page with pages', async ({
  page,
}) => {
  // A stack of its own: the worker's stack may already hold this user's acceptance from another test.
  const fresh = await startStack()
  test.info().attach('stack', { body: fresh.url })
  try {
    await firstVisit(page, fresh.url)
  } finally {
    await fresh.stop()
  }
})

async function firstVisit(page: Page, origin: string): Promise<void> {
  await loginAsDemo(page, { acceptTerms: false, path: `${origin}/` })
  await expect(page.getByRole('heading', { name: 'Terms and conditions', exact: true })).toBeVisible()
  await expect(page.getByText(/Last updated [A-Z][a-z]+ \d{1,2}, \d{4}/)).toBeVisible()
  await expect(page.getByText('I have read and accept the terms and conditions of use.')).toBeVisible()
  const box = page.getByTestId('terms-box')
  await expect(box.locator('p').first()).toBeVisible()
  const maxHeight = await box.evaluate((el) => getComputedStyle(el).maxHeight)
  expect(parseFloat(maxHeight)).toBeLessThanOrEqual(800 * 0.6 + 1)

  let release: () => void = () => undefined
  const held = new Promise<void>((r) => (release = r))
  await page.route('**/api/v2/user/accept-terms', async (route) => {
    await held
    await route.continue()
  })
  await page.getByRole('button', { name: 'Accept' }).click()
  const busy = page.getByRole('button', { name: 'Loading...' })
  await expect(busy).toBeDisabled()
  release()

  await expect(page.getByTestId('app-layout')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('heading', { name: 'Your pages' })).toBeVisible()
  const cards = page.getByTestId('page-card')
  await expect(cards.first()).toBeVisible()
  // Connected pages come first; the page without a token is greyed with "Connect page".
  const states = await cards.evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-connected') !== 'false'),
  )
  expect(states.indexOf(false)).toBeGreaterThan(0)
  expect(states.slice(states.indexOf(false)).every((c) => !c)).toBe(true)
  await expect(page.getByRole('button', { name: /^Connect page/ }).first()).toBeVisible()
}

test('the session survives a reload without logging in again', async ({ page }) => {
  await loginAsDemo(page)
  await page.reload()
  await expect(page.getByTestId('app-layout')).toBeVisible()
  await expect(page.getByTestId('page-card').first()).toBeVisible()
  const cookie = (await page.context().cookies()).find((c) => c.name === 'pagecast_session')
  expect(cookie?.path).toBe('/')
  expect(cookie?.sameSite).toBe('Strict')
  // It lives as long as the session does without use (SESSION_IDLE_DAYS, 30 days by default).
  const days = (cookie!.expires * 1000 - Date.now()) / 86_400_000
  expect(days).toBeGreaterThan(29.9)
  expect(days).toBeLessThanOrEqual(30)
  // The app reads it to send it as its bearer (README, "The session cookie").
  expect(cookie?.httpOnly).toBe(false)
  expect(await page.evaluate(() => document.cookie)).toContain(`pagecast_session=${cookie!.value}`)
})

test('declining a permission shows the login-fail state', async ({ page }) => {
  await loginAsDemo(page, { decline: ['pages_messaging'] })
  await expect(page.getByRole('alert')).toContainText('We could not sign you in')
  await expect(page.getByRole('alert')).toContainText('every permission')
  await expect(page.getByRole('button', { name: 'Continue with Facebook' })).toBeVisible()
})

test('logging out returns to the login screen', async ({ page }) => {
  await loginAsDemo(page)
  await signOut(page, page.getByRole('button', { name: 'Log out' }))
  await expect(page.getByRole('button', { name: 'Continue with Facebook' })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('button', { name: 'Continue with Facebook' })).toBeVisible()
})

/**
 * A returning owner's start: the saved session is drawn at once, while the social login and the product
 * login are checked, and the check's answer replaces it without moving anything, or signs the owner out.
 */
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { layoutShifts, recordLayoutShifts } from './support/layout-shifts.ts'
import { loginAsDemo, restoringLayout, signInChecked } from './support/login.ts'
import { smallTargets } from './support/targets.ts'
import { misfits } from './support/text-fit.ts'

/** Holds the social login's status until the returned function is called. */
async function holdLoginStatus(page: Page): Promise<() => void> {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/sandbox/login-status', async (route) => {
    await held
    await route.continue()
  })
  return release
}

test("a returning owner's pages are drawn before the sign-in answers, and stay put when it does", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await loginAsDemo(page)
  const cards = page.getByTestId('page-card')
  const links = page.locator('a[data-testid="page-card"]')
  await expect(cards.first()).toBeVisible()
  const count = await cards.count()
  const connected = await links.count()
  expect(connected).toBeGreaterThan(0)
  const names = await cards.allTextContents()

  await recordLayoutShifts(page)
  const release = await holdLoginStatus(page)
  await page.reload()
  // Drawn from the saved session: the same cards in the same order, the connected ones linking to their inbox.
  await expect(restoringLayout(page)).toBeVisible()
  await expect(cards).toHaveCount(count)
  await expect(links).toHaveCount(connected)
  expect(await cards.allTextContents()).toEqual(names)
  await expect(page.getByTestId('offline-banner')).toBeHidden()
  await page.screenshot({ path: 'tests/artifacts/screenshots/saved-session-drawn.png' })

  release()
  await signInChecked(page)
  // The check's answer changes nothing that is drawn.
  await expect(links).toHaveCount(connected)
  expect(await cards.allTextContents()).toEqual(names)
  expect(await layoutShifts(page)).toEqual([])
})

test('a page opened from the saved session is entered once the sign-in answers', async ({ page }) => {
  await loginAsDemo(page)
  const card = page.locator('a[data-testid="page-card"]').first()
  await expect(card).toBeVisible()
  const href = (await card.getAttribute('href'))!

  const release = await holdLoginStatus(page)
  await page.reload()
  await expect(restoringLayout(page)).toBeVisible()
  await card.click()
  await expect(page).toHaveURL(href)
  release()
  await expect(page.getByTestId('conversation-row').first()).toBeVisible({ timeout: 20_000 })
  await expect(page).toHaveURL(href)
})

test('a social login that ended signs the owner out after the saved session was drawn, and forgets it', async ({
  page,
}) => {
  await loginAsDemo(page)
  await expect(page.getByTestId('page-card').first()).toBeVisible()
  await page.route('**/sandbox/login-status', (route) =>
    route.fulfill({ json: { status: 'unknown', authResponse: null } }),
  )
  await page.reload()
  await expect(page.getByTestId('login-button')).toBeVisible()
  await expect(page.getByTestId('app-layout')).toBeHidden()
  expect(await page.evaluate(() => localStorage.getItem('pagecast-session-snapshot'))).toBeNull()
})

for (const [lang, viewport] of [
  ['ur', { width: 360, height: 740 }],
  ['bn', { width: 360, height: 740 }],
  ['bn', { width: 740, height: 360 }],
  ['km', { width: 740, height: 360 }],
  ['ur', { width: 1280, height: 800 }],
] as const) {
  test(`the saved session drawn in ${lang} at ${viewport.width} x ${viewport.height}: every control a thumb can hit, no text cut`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport)
    await page.addInitScript((code) => localStorage.setItem('pagecast-locale', code), lang)
    await loginAsDemo(page)
    await expect(page.getByTestId('page-card').first()).toBeVisible()
    const release = await holdLoginStatus(page)
    await page.reload()
    await expect(restoringLayout(page)).toBeVisible()
    await expect(page.getByTestId('page-card').first()).toBeVisible()
    await page.screenshot({
      path: `tests/artifacts/screenshots/saved-session-${lang}-${viewport.width}x${viewport.height}.png`,
    })
    expect(await smallTargets(page)).toEqual([])
    expect(await misfits(page)).toEqual([])
    release()
    await signInChecked(page)
  })
}

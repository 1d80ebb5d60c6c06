/**
 * A part of the app that does not arrive (the connection cut while it was fetched) is said in the owner's
 * language (right to left in Urdu, in its own script in Bengali), upright and sideways on a phone, with a Try
 * again a thumb can hit; Try again fetches it and the app is back.
 * Any other failure of a screen is told the same way instead of the router's English default.
 */
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { smallTargets } from './support/targets.ts'
import { misfits } from './support/text-fit.ts'

const PHONE = { width: 360, height: 740 }
/** The progress cards' code: every signed-in screen fetches it once the first screen is drawn. */
const PANEL_CHUNK = /\/assets\/progress-panel-[^/]*\.js$/

// The service worker would answer the chunk from its own cache: the cut must reach the page.
test.use({ serviceWorkers: 'block' })

async function cutThenRestore(
  page: Page,
  expected: { name: string; title: string; retry: string; dir: 'ltr' | 'rtl' },
) {
  await page.setViewportSize(PHONE)
  await loginAsDemo(page)
  let cut = true
  let asked = 0
  // Routing turns the browser's cache off, so the reload asks for the chunk again.
  await page.route(PANEL_CHUNK, async (route) => {
    asked++
    await (cut ? route.abort('connectionreset') : route.continue())
  })
  await page.reload()
  const error = page.getByTestId('screen-error')
  await expect(error).toBeVisible({ timeout: 20_000 })
  await expect(error.getByRole('heading')).toHaveText(expected.title)
  const retry = error.getByTestId('screen-error-retry')
  await expect(retry).toHaveText(expected.retry)
  expect(
    await page.evaluate(
      () => getComputedStyle(document.querySelector('[data-testid="screen-error"]')!).direction,
    ),
  ).toBe(expected.dir)
  expect(await smallTargets(page)).toEqual([])
  expect(await misfits(page)).toEqual([])
  expect(asked).toBeGreaterThan(0)
  await page.screenshot({ path: `tests/artifacts/screen-error/${expected.name}.png` })
  // The phone turned sideways: the same, nothing cut.
  await page.setViewportSize({ width: PHONE.height, height: PHONE.width })
  await expect(retry).toBeInViewport()
  expect(await smallTargets(page)).toEqual([])
  expect(await misfits(page)).toEqual([])
  await page.screenshot({ path: `tests/artifacts/screen-error/${expected.name}-landscape.png` })

  cut = false
  await retry.click()
  await expect(page.getByTestId('app-layout')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('page-card').first()).toBeVisible()
  await expect(error).toHaveCount(0)
}

test('a part of the app that did not arrive is said, and Try again brings the app back', async ({ page }) => {
  await cutThenRestore(page, { name: 'en', title: 'Something went wrong', retry: 'Try again', dir: 'ltr' })
})

test.describe('in Urdu', () => {
  test.use({ locale: 'ur-PK' })
  test('the same, right to left', async ({ page }) => {
    await cutThenRestore(page, { name: 'ur', title: 'کچھ غلط ہو گیا', retry: 'دوبارہ کوشش کریں', dir: 'rtl' })
  })
})

test.describe('in Bengali', () => {
  test.use({ locale: 'bn-BD' })
  test('the same, in its script', async ({ page }) => {
    await cutThenRestore(page, {
      name: 'bn',
      title: 'কিছু একটা সমস্যা হয়েছে',
      retry: 'আবার চেষ্টা করুন',
      dir: 'ltr',
    })
  })
})

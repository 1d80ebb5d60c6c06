/**
 * The terms gate: Accept waits for the terms to be shown, and stays where it is as they arrive; in Urdu upright
 * and Bengali sideways every control is a target a thumb can hit and no text is cut.
 */
import { expect, test } from './support/fixtures.ts'
import { loginAnswers, loginAsDemo } from './support/login.ts'
import { smallTargets } from './support/targets.ts'
import { misfits } from './support/text-fit.ts'

// page.route cannot see requests a service worker answers.
test.use({ serviceWorkers: 'block', viewport: { width: 360, height: 740 } })

test('Accept is enabled once the terms are shown, and does not move as they arrive', async ({ page }) => {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/api/v2/term-and-condition', async (route) => {
    await held
    await route.continue()
  })
  await loginAnswers(page, { accepted_terms: false })
  await loginAsDemo(page, { acceptTerms: false })
  const accept = page.getByTestId('accept-terms')
  await expect(accept).toBeVisible()
  await expect(accept).toBeDisabled()
  const waiting = (await accept.boundingBox())!
  release()
  await expect(page.getByTestId('terms-box').locator('p').first()).toBeVisible()
  await expect(accept).toBeEnabled()
  expect(await accept.boundingBox()).toEqual(waiting)
  expect(waiting.height).toBeGreaterThanOrEqual(44)
})

for (const [lang, viewport] of [
  ['ur', { width: 360, height: 740 }],
  ['bn', { width: 740, height: 360 }],
] as const) {
  test(`the terms gate in ${lang} at ${viewport.width} x ${viewport.height}: every control a thumb can hit, no text cut`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport)
    await page.addInitScript((code) => localStorage.setItem('pagecast-locale', code), lang)
    await loginAnswers(page, { accepted_terms: false })
    await loginAsDemo(page, { acceptTerms: false })
    await expect(page.getByTestId('terms-box').locator('p').first()).toBeVisible()
    await expect(page.getByTestId('accept-terms')).toBeEnabled()
    // The published terms are English: they read left to right whatever the interface's direction.
    const prose = page.getByTestId('terms-box').locator('.terms-prose')
    expect(await prose.evaluate((e) => getComputedStyle(e).direction)).toBe('ltr')
    await page.screenshot({
      path: `tests/artifacts/screenshots/terms-${lang}-${viewport.width}x${viewport.height}.png`,
    })
    expect(await smallTargets(page)).toEqual([])
    expect(await misfits(page)).toEqual([])
  })
}

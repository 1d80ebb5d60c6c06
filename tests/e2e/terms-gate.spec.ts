/** The terms gate: Accept waits for the terms to be shown, and stays where it is as they arrive. */
import { expect, test } from './support/fixtures.ts'
import { loginAnswers, loginAsDemo } from './support/login.ts'

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

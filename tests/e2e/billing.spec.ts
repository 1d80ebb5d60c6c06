/** /account/billing shows the subscription history from `GET /api/v2/user/subscriptions`. */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'

test('the billing page lists the subscriptions, usable at 360 px', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await loginAsDemo(page)
  const history = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v2/user/subscriptions')
  await page.goto('/account/billing')
  expect((await history).status()).toBe(200)
  const list = page.getByTestId('subscription-history')
  await expect(list).toBeVisible()
  const entries = list.getByTestId('subscription-entry')
  await expect(entries.first()).toContainText('USD')
  await expect(entries.first()).toContainText('Current period ends')
  const box = (await entries.first().boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(360)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})

test.describe('in Spanish', () => {
  test.use({ locale: 'es-MX' })
  test('the billing page speaks Spanish', async ({ page }) => {
    await loginAsDemo(page)
    await page.goto('/account/billing')
    await expect(page.getByRole('heading', { name: 'Historial de suscripciones' })).toBeVisible()
    await expect(page.getByTestId('subscription-entry').first()).toContainText('Creada')
  })
})

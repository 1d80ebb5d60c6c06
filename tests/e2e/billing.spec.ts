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
    const history = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v2/user/subscriptions')
    await page.goto('/account/billing')
    await expect(page.getByRole('heading', { name: 'Historial de suscripciones' })).toBeVisible()
    const first = page.getByTestId('subscription-entry').first()
    await expect(first).toContainText('Creada')
    // A trial is named in the owner's language, not with the server's word for it.
    const body = (await (await history).json()) as { product: string }[] | { data: { product: string }[] }
    const listed = Array.isArray(body) ? body : body.data
    if (listed[0]?.product === 'trial') {
      await expect(first).toContainText('Prueba')
      await expect(first).not.toContainText('trial')
    }
  })
})

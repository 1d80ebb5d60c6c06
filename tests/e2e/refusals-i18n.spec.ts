/** The server's refusals carry codes; the app says them once, in the user's language. */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pages } from './support/sandbox.ts'

test.use({ locale: 'es-MX' })

test('in Spanish a page whose trial was used shows one Spanish notice and no English one', async ({
  page,
}) => {
  await loginAsDemo(page)
  await page.goto(`/${pages.trialUsed}`)
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 })
  const notes = page.getByTestId('notification')
  await expect(notes.filter({ hasText: 'Esta página ya se usó para una prueba' })).toHaveCount(1)
  await expect(page.getByRole('button', { name: 'Comprar una suscripción' })).toBeVisible()
  // Read at once, not retried: a notice that closes by itself would pass a waiting assertion.
  await page.waitForTimeout(1_000)
  const texts = await notes.allTextContents()
  expect(texts).toHaveLength(1)
  expect(texts[0]).not.toContain('This page has already been used for a trial')
})

test('in Spanish a banned page is refused in Spanish', async ({ page }) => {
  await loginAsDemo(page)
  await page.goto(`/${pages.banned}`)
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 })
  const notes = page.getByTestId('notification')
  await expect(notes).toContainText('Esta página fue bloqueada. Ponte en contacto con soporte.')
  await page.waitForTimeout(1_000)
  const texts = await notes.allTextContents()
  expect(texts).toEqual(['AdvertenciaEsta página fue bloqueada. Ponte en contacto con soporte.'])
})

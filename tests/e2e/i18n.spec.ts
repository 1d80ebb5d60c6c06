/** The language comes from the browser; Urdu lays out right to left; the picker switches and is remembered. */
import { expect, test } from './support/fixtures.ts'
import { loginAnswers, loginAsDemo } from './support/login.ts'

test.describe('Spanish browser', () => {
  test.use({ locale: 'es-MX', serviceWorkers: 'block' })
  test('shows the app in Spanish with Mexican number style', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('button', { name: 'Continuar con Facebook' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'es')
    // Shown whether or not this worker's earlier tests already accepted the terms.
    await loginAnswers(page, { accepted_terms: false })
    await loginAsDemo(page, { acceptTerms: false })
    await expect(page.getByRole('heading', { name: 'Términos y condiciones' })).toBeVisible()
    await expect(page.getByText(/Última actualización: \d{1,2} de [a-z]+ de \d{4}/)).toBeVisible()
    await page.unroute('**/api/v2/login')
    await page.getByTestId('accept-terms').click()
    await expect(page.getByRole('heading', { name: 'Tus páginas' })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByTestId('page-card').first()).toContainText(/\d{1,3}(,\d{3})* seguidores/)
  })
})

test.describe('Urdu browser', () => {
  test.use({ locale: 'ur-PK' })
  test('shows the app in Urdu, right to left', async ({ page }) => {
    await page.goto('/')
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
    await expect(page.locator('html')).toHaveAttribute('lang', 'ur')
    await expect(page.getByRole('button', { name: 'Facebook کے ساتھ جاری رکھیں' })).toBeVisible()
    await loginAsDemo(page)
    await expect(page.getByRole('heading', { name: 'آپ کے صفحات' })).toBeVisible()
    // The sidebar sits at the start edge, which is the right in Urdu.
    const box = await page.getByTestId('sidebar').boundingBox()
    expect(box!.x).toBeGreaterThan(600)
  })
})

test('the language picker switches the interface and remembers the choice', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('combobox', { name: 'Language' }).selectOption('bn')
  await expect(page.getByRole('button', { name: 'Facebook দিয়ে চালিয়ে যান' })).toBeVisible()
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('lang', 'bn')
  await page.getByRole('combobox').selectOption('km')
  await expect(page.getByRole('button', { name: 'បន្តជាមួយ Facebook' })).toBeVisible()
})

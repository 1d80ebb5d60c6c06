/** Home: fuzzy page search, connected pages first, cards with Mexican-Spanish style fan counts. */
import { expect, test } from './support/fixtures.ts'
import { loginAsDemo } from './support/login.ts'
import { pressContinue } from './support/dialog.ts'

test('the search box filters pages by name, case-insensitive and forgiving a typo', async ({ page }) => {
  await loginAsDemo(page)
  const cards = page.getByTestId('page-card')
  await expect(cards.first()).toBeVisible()
  const names = await cards.locator('p.font-semibold').allInnerTexts()
  expect(names.length).toBeGreaterThan(2)
  const target = names[0]!
  const search = page.getByPlaceholder('Search pages')

  await search.fill(target.slice(0, 5).toUpperCase())
  await expect(cards.filter({ hasText: target })).toHaveCount(1)
  await expect(cards).not.toHaveCount(names.length)

  // One swapped letter still finds the page (threshold 0.2).
  const typo = target.slice(0, 3) + target[4] + target[3] + target.slice(5)
  await search.fill(typo)
  await expect(cards.filter({ hasText: target })).toHaveCount(1)

  await search.fill('zzzz qqqq')
  await expect(cards).toHaveCount(0)
  await expect(page.getByText('No page matches your search.')).toBeVisible()

  await search.fill('')
  await expect(cards).toHaveCount(names.length)
})

test("a returning owner's home draws its cards once: a banned page's note does not push the cards below", async ({
  page,
}) => {
  await page.setViewportSize({ width: 412, height: 823 })
  await loginAsDemo(page)
  await expect(page.getByTestId('page-card').first()).toBeVisible()
  await page.addInitScript(() => {
    const w = window as unknown as { layoutShift: number }
    w.layoutShift = 0
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.layoutShift += (entry as unknown as { value: number }).value
    }).observe({ type: 'layout-shift', buffered: true })
  })
  await page.reload()
  await expect(page.getByTestId('page-card-standing')).toHaveText('Banned from Pagecast. Contact support.')
  await expect(page.getByTestId('page-card').nth(3)).toBeInViewport()
  // The observer reports a shift after the frame that made it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))))
  expect(await page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift)).toBe(0)
})

test('page cards show the fan count with thousands separators and link to the inbox', async ({ page }) => {
  await loginAsDemo(page)
  const first = page.getByTestId('page-card').first()
  await expect(first).toContainText(/\d{1,3}(,\d{3})* followers/)
  const href = await first.getAttribute('href')
  expect(href).toMatch(/^\/\d+$/)
  await expect(page.getByRole('button', { name: 'Add a new page' })).toBeVisible()
})

test('"Connect page" and the add-new-page card start the login dialog', async ({ page }) => {
  await loginAsDemo(page)
  const popup = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Connect page' }).first().click()
  const dialog = await popup
  await expect(dialog.getByRole('button', { name: 'Continue' })).toBeVisible()
  const closed = dialog.waitForEvent('close')
  // The dialog closes itself during the click, which Playwright may report as an error.
  await dialog
    .getByRole('button', { name: 'Cancel' })
    .click()
    .catch(() => undefined)
  await closed
  // Abandoning the second login keeps the user signed in.
  await expect(page.getByTestId('notification')).toContainText('The page could not be connected')
  await expect(page.getByTestId('app-layout')).toBeVisible()
  const again = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Add a new page' }).click()
  await pressContinue(await again)
  await expect(page.getByTestId('page-card').first()).toBeVisible()
})

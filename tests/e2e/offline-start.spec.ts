/** Starting without network: the saved config and session open the signed-in app; tokens return online. */
import type { Locator } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAnswers, loginAsDemo } from './support/login.ts'
import { controlledByServiceWorker } from './support/service-worker.ts'

// The offline reload is answered by the service worker.
test.use({ serviceWorkers: 'allow' })

/** The rail shows `count` pages, each with its picture drawn. */
async function expectRail(rail: Locator, count: number): Promise<void> {
  await expect(rail).toHaveCount(count)
  await expect
    .poll(() =>
      rail
        .locator('img')
        .evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
    )
    .toBe(count)
}

test('an offline reload shows the pages from the saved session, then reconnects them online', async ({
  page,
  context,
}) => {
  await loginAsDemo(page)
  const cards = page.getByTestId('page-card')
  await expect(cards.first()).toBeVisible()
  const count = await cards.count()
  const connected = await page.locator('a[data-testid="page-card"]').count()
  const rail = page.getByRole('navigation', { name: 'Connected pages' }).getByRole('link')
  // Every picture of the rail was shown once online, so the worker's image cache holds it.
  await expectRail(rail, connected)
  await controlledByServiceWorker(page)

  await context.setOffline(true)
  await page.reload()
  await expect(page.getByTestId('app-layout')).toBeVisible()
  await expect(page.getByTestId('offline-banner')).toBeVisible()
  await expect(cards).toHaveCount(count)
  // No page token was saved, but the pages that were connected are drawn so, linking to their saved inbox.
  await expect(page.locator('a[data-testid="page-card"]')).toHaveCount(connected)
  // The rail still shows the pages that were connected, with their pictures, as the cards show theirs.
  await expectRail(rail, connected)
  await page.screenshot({ path: 'tests/artifacts/screenshots/offline-start-rail.png' })

  await context.setOffline(false)
  await expect(page.getByTestId('offline-banner')).toBeHidden({ timeout: 15_000 })
  // Back online the page tokens are fetched again: the cards link to their inbox.
  await expect(cards.first()).toHaveAttribute('href', /^\/\d+$/, { timeout: 15_000 })
})

test('terms accepted as the network drops: the offline reload opens the app, not the terms again', async ({
  page,
  context,
}) => {
  // The login answers that the terms are still to accept (the demo owner accepted them in an earlier test).
  await loginAnswers(context, { accepted_terms: false })
  await loginAsDemo(page, { acceptTerms: false })
  await expect(page.getByTestId('terms-gate')).toBeVisible()
  await controlledByServiceWorker(page)
  // The acceptance reaches the server; the network is gone by the time the page reloads.
  await context.route('**/api/v2/user/accept-terms', async (route) => {
    const res = await route.fetch()
    await context.setOffline(true)
    await route.fulfill({ response: res })
  })
  await page.getByTestId('accept-terms').click()
  await expect(page.getByTestId('offline-banner')).toBeVisible()
  await expect(page.getByTestId('app-layout')).toBeVisible()
  await expect(page.getByTestId('terms-gate')).toBeHidden()
  await context.setOffline(false)
})

test('nothing saved for the offline start holds a token', async ({ page }) => {
  await loginAsDemo(page)
  await expect(page.getByTestId('page-card').first()).toBeVisible()
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }))
  expect(stored).toContain('pagecast-session-snapshot')
  expect(stored).not.toMatch(/access_token|accessToken/)
  const cookie = (await page.context().cookies()).find((c) => c.name === 'pagecast_session')!
  expect(stored).not.toContain(cookie.value)
})

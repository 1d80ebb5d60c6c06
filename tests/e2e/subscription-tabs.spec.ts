/** Every open tab learns of a new subscription: from the tab that returns from checkout, and on focus. */
import type { Page, Route } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { openCheckoutTab, payInCheckout } from './support/checkout.ts'
import { loginAsDemo } from './support/login.ts'

/** Purchases change the API's state for the whole worker: the second sandbox owner, never the demo. */
const BUYER = { account: 1 }

test.use({ serviceWorkers: 'block' })

/** Answers this tab's login and `GET /user` with a subscription without access, as if it had ended. */
async function withoutAccess(page: Page): Promise<() => Promise<void>> {
  const revoke = async (route: Route) => {
    const res = await route.fetch()
    const body = (await res.json()) as Record<string, unknown>
    const data = body.data as Record<string, unknown> | undefined
    const user = data?.user as Record<string, unknown> | undefined
    const sub = (user?.subscription ?? data?.subscription ?? body.subscription) as Record<string, unknown>
    sub.access = false
    await route.fulfill({ response: res, json: body })
  }
  await page.route('**/api/v2/login', revoke)
  await page.route('**/api/v2/user', revoke)
  return async () => {
    await page.unroute('**/api/v2/login')
    await page.unroute('**/api/v2/user')
  }
}

test('paying in the checkout tab takes the original tab off /plans with the new allowance, without a reload', async ({
  page,
}) => {
  const restore = await withoutAccess(page)
  await loginAsDemo(page, BUYER)
  await expect(page).toHaveURL(/\/plans$/, { timeout: 20_000 })
  await restore()
  // A mark that a reload would wipe.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }))
  const tab = await openCheckoutTab(page)
  await payInCheckout(tab)
  // The original tab was never focused again: the returning tab told it.
  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 })
  await expect
    .poll(async () => Number((await page.getByTestId('message-badge').innerText()).replace(/\D/g, '')))
    .toBeGreaterThanOrEqual(2000)
  expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true)
})

test('a tab that comes back into focus reads the subscription again', async ({ page }) => {
  const restore = await withoutAccess(page)
  await loginAsDemo(page, BUYER)
  await expect(page).toHaveURL(/\/plans$/, { timeout: 20_000 })
  await restore()
  // Another tab or device changed the subscription meanwhile; this one is focused again.
  const refetch = page.waitForRequest((r) => r.url().endsWith('/api/v2/user'))
  await page.evaluate(() => window.dispatchEvent(new Event('focus')))
  await refetch
  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 })
})

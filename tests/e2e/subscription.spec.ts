/** Checkout through the sandbox payment page, the outcome on return, and cancelling with a reason. */
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { openCheckoutTab, payInCheckout } from './support/checkout.ts'
import { loginAsDemo } from './support/login.ts'

/** Purchases change the API's state for the whole worker: they use the second sandbox owner, never the demo. */
const BUYER = { account: 1 }

async function badgeCount(page: Page): Promise<number> {
  return Number((await page.getByTestId('message-badge').innerText()).replace(/\D/g, ''))
}

async function buyStarterPlan(page: Page): Promise<Page> {
  await page.getByTestId('user-avatar').first().click()
  const modal = page.getByTestId('modal')
  await expect(modal).toContainText('My subscription')
  await modal.getByRole('button', { name: 'Plans' }).click()
  const plans = page.getByTestId('plan-card')
  await expect(plans).toHaveCount(8)
  const tab = await openCheckoutTab(page)
  await expect(tab.getByRole('button', { name: 'Pay' })).toBeVisible({ timeout: 20_000 })
  return tab
}

test('a sandbox checkout activates a plan and raises the badge', async ({ page }) => {
  await loginAsDemo(page, BUYER)
  const before = await badgeCount(page)
  const tab = await buyStarterPlan(page)
  await tab.getByRole('button', { name: 'Pay' }).click()
  await expect(tab).toHaveURL(/\/$/, { timeout: 20_000 })
  await expect(tab.getByTestId('notification').filter({ hasText: 'Payment completed' })).toBeVisible()
  await expect.poll(() => badgeCount(tab)).toBeGreaterThanOrEqual(Math.max(before, 2000))
  await expect(tab.getByTestId('message-badge')).toHaveAttribute('data-tone', 'primary')
})

test('a cancelled checkout says so and charges nothing', async ({ page }) => {
  await loginAsDemo(page, BUYER)
  const before = await badgeCount(page)
  const tab = await buyStarterPlan(page)
  await tab.getByRole('button', { name: 'Cancel' }).click()
  await expect(tab.getByTestId('notification').filter({ hasText: 'Checkout cancelled' })).toBeVisible({
    timeout: 20_000,
  })
  expect(await badgeCount(tab)).toBe(before)
})

test('cancelling needs a reason, then shows the orange notice and hides the cancel button', async ({
  page,
}) => {
  await loginAsDemo(page, BUYER)
  const tab = await buyStarterPlan(page)
  await payInCheckout(tab)

  await tab.getByTestId('user-avatar').first().click()
  const details = tab.getByTestId('my-subscription')
  await expect(details).toContainText('USD')
  await tab.getByRole('button', { name: 'Cancel subscription' }).click()
  const reason = tab.getByLabel('Tell us, Why leaving us?')
  await expect(reason).toHaveAttribute('placeholder', 'Message')
  await tab.getByTestId('modal').last().getByRole('button', { name: 'Cancel subscription' }).click()
  await expect(tab.getByText('Required')).toBeVisible()

  await reason.fill('Too many messages for my needs')
  const cancel = tab.waitForResponse('**/api/v2/user/subscriptions/cancel-subscription')
  await tab.getByTestId('modal').last().getByRole('button', { name: 'Cancel subscription' }).click()
  expect((await cancel).status()).toBe(200)
  await expect(tab.getByTestId('cancel-notice')).toContainText('automatically cancelled at the end')
  await expect(tab.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0)
})

test('a trial shows its end and messages left and is offered plans, not add-ons', async ({ page }) => {
  await loginAsDemo(page)
  await page.getByTestId('user-avatar').first().click()
  const details = page.getByTestId('my-subscription')
  await expect(details).toContainText('Trial ends')
  await expect(details).toContainText('Messages left')
  await expect(details).not.toContainText('Cancels at period end')
  await expect(page.getByTestId('modal').getByRole('button', { name: 'Buy more messages' })).toHaveCount(0)
  // The add-ons' address says why before any checkout tab opens.
  let tabs = 0
  page.context().on('page', () => tabs++)
  await page.goto('/?modal=addons')
  await expect(page.getByTestId('addons-need-plan')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId('addon')).toHaveCount(0)
  await page.getByTestId('addons-need-plan').getByRole('button', { name: 'See the plans' }).click()
  await expect(page.getByTestId('plan-card')).toHaveCount(8)
  expect(tabs).toBe(0)
})

test('the modals stack, trap focus, and Escape closes only the top one', async ({ page }) => {
  await loginAsDemo(page)
  await page.getByTestId('user-avatar').first().click()
  await page.getByTestId('modal').getByRole('button', { name: 'Plans' }).click()
  await expect(page.getByTestId('modal')).toHaveCount(2)
  await expect(page.getByTestId('plan-card').first()).toBeVisible()
  for (let i = 0; i < 12; i++) await page.keyboard.press('Tab')
  const inTop = await page.evaluate(
    () => document.activeElement?.closest('[data-testid="modal"]')?.textContent ?? '',
  )
  expect(inTop).toContain('Unlimited pages')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('modal')).toHaveCount(1)
  await expect(page.getByTestId('modal')).toContainText('My subscription')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('modal')).toHaveCount(0)
  // Focus goes back to the control that opened the first modal.
  expect(
    await page.evaluate(() => Boolean(document.activeElement?.querySelector('[data-testid="user-avatar"]'))),
  ).toBe(true)
})

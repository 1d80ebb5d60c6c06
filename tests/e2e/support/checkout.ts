/** The sandbox's checkout, as a page owner goes through it from the plans screen. */
import type { Page } from '@playwright/test'
import { expect } from './fixtures.ts'

/** Subscribes to the first plan card on screen: the sandbox's payment page opens in a new tab. */
export async function openCheckoutTab(page: Page): Promise<Page> {
  const tabPromise = page.context().waitForEvent('page')
  await page.getByTestId('plan-card').first().getByRole('button', { name: 'Subscribe' }).click()
  return tabPromise
}

/** Pays on the sandbox's payment page; the product's tab comes back saying the payment is completed. */
export async function payInCheckout(tab: Page): Promise<void> {
  await tab.getByRole('button', { name: 'Pay' }).click({ timeout: 20_000 })
  await expect(tab.getByTestId('notification').filter({ hasText: 'Payment completed' })).toBeVisible({
    timeout: 20_000,
  })
}

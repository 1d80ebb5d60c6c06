/**
 * docs/product-rules.md#error-catalogue: a failed accept-terms or cancellation only clears the busy state and
 * shows no message.
 */
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { loginAnswers, loginAsDemo } from './support/login.ts'

// page.route cannot see requests a service worker answers.
test.use({ serviceWorkers: 'block' })

/** Notices shown at this moment, read once (a waiting assertion would let an auto-closing one pass). */
async function noticesNow(page: Page): Promise<string[]> {
  await page.waitForTimeout(1_000)
  return page.getByTestId('notification').allTextContents()
}

test('a failed accept-terms clears the busy state and shows nothing', async ({ page }) => {
  await loginAnswers(page, { accepted_terms: false })
  await loginAsDemo(page, { acceptTerms: false })
  await page.route('**/api/v2/user/accept-terms', (r) =>
    r.fulfill({ status: 500, json: { message: 'Internal Error' } }),
  )
  const accept = page.getByTestId('accept-terms')
  await accept.click()
  await expect(accept).toHaveText('Accept')
  await expect(accept).toBeEnabled()
  expect(await noticesNow(page)).toEqual([])
})

test('a failed cancellation clears the loading state and shows nothing', async ({ page }) => {
  await loginAnswers(page, { access_type: 'paid' })
  await page.route('**/api/v2/user/subscriptions/my-subscription', (r) =>
    r.fulfill({
      json: {
        current_period_end: '2030-01-01T00:00:00Z',
        cancel_at_period_end: false,
        product: 'starter',
        amount: 14.99,
        created: '2026-01-01T00:00:00Z',
      },
    }),
  )
  await page.route('**/api/v2/user/subscriptions/cancel-subscription', (r) =>
    r.fulfill({ status: 500, json: { message: 'Internal Error' } }),
  )
  await loginAsDemo(page)
  await page.getByTestId('user-avatar').first().click()
  await page.getByRole('button', { name: 'Cancel subscription' }).click()
  await page.getByLabel('Tell us, Why leaving us?').fill('Too expensive')
  const submit = page.getByTestId('modal').last().getByRole('button', { name: 'Cancel subscription' })
  await submit.click()
  await expect(submit).toBeEnabled()
  expect(await noticesNow(page)).toEqual([])
})

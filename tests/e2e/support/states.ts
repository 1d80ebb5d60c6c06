/**
 * Real states for end-to-end tests, through the stack's test routes (`TEST_ROUTES`, docs/architecture.md#testing-states):
 * the signed-in account put in a subscription state, then the app reloaded so it reads it.
 */
import { type Page, expect } from '@playwright/test'
import { SESSION_COOKIE } from '../../../src/core/constants/limits.ts'
import type { SubscriptionStateName } from '../../../src/core/contracts/testing.ts'

/** The settings of a stack whose test routes are on. */
export const TEST_ROUTES_ENV = { TEST_ROUTES: 'true' }

/** Puts the account signed in on `page` in `state` (`POST /api/v2/testing/subscription`) and reloads the app. */
export async function putSubscription(page: Page, state: SubscriptionStateName): Promise<void> {
  const session = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)
  expect(session, 'the page is signed in').toBeTruthy()
  const res = await page.request.post('/api/v2/testing/subscription', {
    headers: { authorization: `Bearer ${session!.value}` },
    data: { state },
  })
  expect(res.status(), await res.text()).toBe(200)
  await page.reload()
  await expect(page.getByTestId('app-layout')).toBeVisible({ timeout: 20_000 })
}

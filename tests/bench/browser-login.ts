/**
 * Signs the benchmark's browser in through the sandbox login dialog, accepting the terms when they show.
 * Benchmarks run outside the Playwright test runner, so this waits on locators rather than `expect`.
 */
import type { Page } from '@playwright/test'
import { pressContinue } from '../e2e/support/dialog.ts'

export async function benchLogin(page: Page): Promise<void> {
  await page.goto('/')
  const popupPromise = page.waitForEvent('popup')
  await page.getByTestId('login-button').click({ timeout: 60_000 })
  const popup = await popupPromise
  await pressContinue(popup)
  const terms = page.getByTestId('terms-gate')
  const home = page.getByTestId('app-layout')
  await terms.or(home).first().waitFor({ timeout: 30_000 })
  if (await terms.isVisible()) {
    await page.getByTestId('accept-terms').click()
    await home.waitFor({ timeout: 30_000 })
  }
}

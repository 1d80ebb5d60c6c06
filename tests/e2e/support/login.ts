/**
 * Signs in through the sandbox login dialog as a person would: the "Continue with Facebook" button opens the
 * popup, the permissions stay checked (or some are unchecked), "Continue" answers the app.
 */
import { type BrowserContext, type Locator, type Page, expect } from '@playwright/test'
import { pressContinue } from './dialog.ts'

export interface LoginOptions {
  /** Accept the terms gate when it shows (default true). */
  acceptTerms?: boolean
  /** Permission names to uncheck in the dialog. */
  decline?: string[]
  /** Where to start (default `/`); `null` signs in from the login screen the page already shows. */
  path?: string | null
  /** Which sandbox account of the dialog to use: 0 is the demo owner, 1 the second owner, 2 the demo owner's partner. */
  account?: number
}

export async function loginAsDemo(page: Page, options: LoginOptions = {}): Promise<void> {
  const { acceptTerms = true, decline = [], path = '/', account = 0 } = options
  if (path !== null) await page.goto(path)
  // Test ids, not texts, so the helper works in every interface language.
  const button = page.getByTestId('login-button')
  await expect(button).toBeVisible()
  const popupPromise = page.waitForEvent('popup')
  await button.click()
  const popup = await popupPromise
  await popup.waitForLoadState('domcontentloaded')
  if (account > 0) await popup.locator('input[name="user"]').nth(account).check()
  for (const name of decline) await popup.getByLabel(name, { exact: false }).uncheck()
  await pressContinue(popup)
  if (decline.length > 0) return
  const terms = page.getByTestId('terms-gate')
  const home = page.getByTestId('app-layout')
  await expect(terms.or(home)).toBeVisible({ timeout: 20_000 })
  if (acceptTerms && (await terms.isVisible())) {
    await page.getByTestId('accept-terms').click()
    await expect(home).toBeVisible({ timeout: 20_000 })
  }
  await signInChecked(page)
}

/** The layout drawn from the saved session while the sign-in is checked. */
export function restoringLayout(page: Page): Locator {
  return page.locator('[data-app-layout][data-restoring]')
}

/** The app no longer shows the saved session alone: the sign-in's check has answered. */
export async function signInChecked(page: Page): Promise<void> {
  await expect(restoringLayout(page)).toHaveCount(0, { timeout: 20_000 })
}

/**
 * Changes the subscription the product login answers with, in this tab or every tab of `target`'s context (the
 * context's routes also see what a service worker fetches): `{ accepted_terms: false }` shows the terms gate
 * whatever the worker's earlier tests accepted.
 */
export async function loginAnswers(
  target: Page | BrowserContext,
  change: Record<string, unknown>,
): Promise<void> {
  await target.route('**/api/v2/login', async (route) => {
    const res = await route.fetch()
    const body = await res.json()
    Object.assign(body.data.user.subscription, change)
    await route.fulfill({ response: res, json: body })
  })
}

/**
 * Signs out through `start` (the header's "Log out" or a device row's "Sign out") and ends on the login screen.
 * A bulk send an earlier test left open on the worker's server is rebuilt on this device at sign-in, so the
 * sign-out may ask first: it is then confirmed.
 */
export async function signOut(page: Page, start: Locator): Promise<void> {
  await start.click()
  const confirm = page.getByTestId('sign-out-confirm')
  const loginButton = page.getByTestId('login-button')
  await expect(confirm.or(loginButton)).toBeVisible()
  if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Sign out and delete' }).click()
  await expect(loginButton).toBeVisible()
}

/** A user access token without the dialog (`POST /sandbox/token`), for API-level set-up in tests. */
export async function sandboxUserToken(baseURL: string, user = 'demo', scopes?: string[]): Promise<string> {
  const res = await fetch(`${baseURL}/sandbox/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(scopes ? { user, scopes } : { user }),
  })
  if (!res.ok) throw new Error(`sandbox token: HTTP ${res.status}`)
  const body = (await res.json()) as { access_token?: string; accessToken?: string; token?: string }
  const token = body.access_token ?? body.accessToken ?? body.token
  if (!token) throw new Error('sandbox token answered without a token')
  return token
}

/** The product API bearer for a sandbox user: logs in through `POST /api/v2/login`. */
export async function apiSessionToken(baseURL: string, user = 'demo'): Promise<string> {
  const accessToken = await sandboxUserToken(baseURL, user)
  const res = await fetch(`${baseURL}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ access_token: accessToken }),
  })
  if (!res.ok) throw new Error(`login: HTTP ${res.status}`)
  const body = (await res.json()) as { data: { token: string } }
  return body.data.token
}

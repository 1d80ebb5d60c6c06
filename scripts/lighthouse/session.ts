/**
 * A signed-in demo user for the audit, as after the login dialog: the sandbox's own login session (so the
 * social login status answers "connected" and the page tokens load), the product login, the terms accepted.
 */
import type { BrowserContext } from '@playwright/test'
import { inboxDeviceState } from '../../tests/e2e/support/inbox-device-state.ts'
import { REQUIRED_PERMISSIONS, SESSION_COOKIE } from '../../src/core/constants/limits.ts'
import { SESSION_COOKIE as SANDBOX_SESSION_COOKIE } from '../../src/sandbox/dialog/routes.ts'

export interface AuditCookie {
  name: string
  value: string
  path: string
}

export interface AuditSession {
  /** The product session and the sandbox's social login session. */
  cookies: AuditCookie[]
  /** The product API's bearer token (the product session cookie's value). */
  token: string
  /** A page of the demo user, for the inbox route. */
  pageId: string
  /** That page's token, which registering the page with the API needs. */
  pageToken: string
}

async function json<T>(res: Response, what: string): Promise<T> {
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

export async function signIn(baseURL: string): Promise<AuditSession> {
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${baseURL}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    })
  const config = await json<{ fbAppId: string }>(await fetch(`${baseURL}/api/v2/config`), 'config')
  // The dialog's "Continue": it answers the login and sets the sandbox's session cookie.
  const grant = await post('/sandbox/dialog/grant', {
    client_id: config.fbAppId,
    user: 'demo',
    granted: REQUIRED_PERMISSIONS,
    declined: [],
  })
  const sandboxCookie = /^[^=]+=([^;]+)/.exec(grant.headers.get('set-cookie') ?? '')?.[1]
  const { authResponse } = await json<{ authResponse: { accessToken: string } | null }>(grant, 'dialog grant')
  if (!authResponse || !sandboxCookie) throw new Error('the sandbox dialog did not sign the demo user in')
  const access_token = authResponse.accessToken
  const login = await json<{ data: { token: string } }>(
    await post('/api/v2/login', { access_token }),
    'login',
  )
  const token = login.data.token
  await json(await post('/api/v2/user/accept-terms', {}, token), 'accept terms')
  const accounts = await json<{ data: { id: string; access_token?: string }[] }>(
    await fetch(
      `${baseURL}/sandbox/graph/v19.0/me/accounts?fields=id,access_token&access_token=${encodeURIComponent(access_token)}`,
    ),
    'accounts',
  )
  const page = accounts.data.find((a) => a.access_token)
  if (!page?.access_token) throw new Error('the demo user has no page')
  const { id: pageId, access_token: pageToken } = page
  return {
    cookies: [
      { name: SESSION_COOKIE, value: token, path: '/' },
      { name: SANDBOX_SESSION_COOKIE, value: sandboxCookie, path: '/sandbox' },
    ],
    token,
    pageId,
    pageToken,
  }
}

/**
 * The device as a returning owner left it: home and the page's inbox opened once, the inbox's walk over the
 * page's conversations finished and the service worker in control. What the app saved (its session snapshot,
 * local database and caches) stays for the runs that follow.
 */
export async function visitAsOwner(context: BrowserContext, baseURL: string, pageId: string): Promise<void> {
  const page = await context.newPage()
  // The phone the audit emulates.
  await page.setViewportSize({ width: 412, height: 823 })
  try {
    await page.goto(`${baseURL}/`)
    await page.getByTestId('page-card').first().waitFor({ timeout: 60_000 })
    await page.goto(`${baseURL}/${pageId}`)
    await page.getByTestId('conversation-row').first().waitFor({ timeout: 60_000 })
    const deadline = Date.now() + 300_000
    while (!(await inboxDeviceState(page, pageId)).done) {
      if (Date.now() > deadline) throw new Error('the inbox did not finish reading the page within 5 minutes')
      await page.waitForTimeout(500)
    }
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 60_000,
    })
  } finally {
    await page.close()
  }
}

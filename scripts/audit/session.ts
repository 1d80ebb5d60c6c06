/** A signed-in demo user for the audit: a sandbox token, the product login, the terms accepted. */
import { SESSION_COOKIE } from '../../src/shared/constants/limits.ts'

export interface AuditSession {
  cookie: { name: string; value: string }
  /** A page of the demo user, for the inbox route. */
  pageId: string
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
  const { access_token } = await json<{ access_token: string }>(
    await post('/sandbox/token', { user: 'demo' }),
    'sandbox token',
  )
  const login = await json<{ data: { token: string } }>(
    await post('/api/v2/login', { access_token }),
    'login',
  )
  const token = login.data.token
  await json(await post('/api/v2/user/accept-terms', {}, token), 'accept terms')
  const accounts = await json<{ data: { id: string }[] }>(
    await fetch(
      `${baseURL}/sandbox/graph/v19.0/me/accounts?access_token=${encodeURIComponent(access_token)}`,
    ),
    'accounts',
  )
  const pageId = accounts.data[0]?.id
  if (!pageId) throw new Error('the demo user has no page')
  return { cookie: { name: SESSION_COOKIE, value: token }, pageId }
}

/**
 * The two API calls of the start-up and login path (`POST /login`, `GET /user`) on plain `fetch`, so the
 * login screen loads without the full client. Failures reject with a `SessionFetchError` whose status is 0
 * when the network never answered; the login screen states the failure itself.
 */
import type { LoginResponse, SubscriptionState } from '../contracts/api.ts'
import { isObject, parseLoginResponse, parseSubscription } from './guards.ts'
import { apiToken, clearSessionToken } from './session-cookie.ts'
import { notifyUnauthorized } from './unauthorized.ts'

export class SessionFetchError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.name = 'SessionFetchError'
    this.status = status
  }
}

/** True when the request never reached the server (offline, DNS, connection cut). */
export const isNetworkFailure = (error: unknown): boolean =>
  error instanceof SessionFetchError && error.status === 0

async function call(path: string, init: RequestInit = {}): Promise<unknown> {
  const headers = new Headers(init.headers)
  headers.set('Accept', 'application/json')
  headers.set('X-Requested-With', 'XMLHttpRequest')
  const token = apiToken()
  if (token) headers.set('Authorization', `Bearer ${token}`)
  let res: Response
  try {
    res = await fetch(`/api/v2${path}`, { ...init, headers, cache: 'no-store' })
  } catch (err) {
    throw new SessionFetchError(0, err instanceof Error ? err.message : 'Network error')
  }
  if (res.status === 401) {
    clearSessionToken()
    notifyUnauthorized()
  }
  // Spec section 7: statuses 200–400 are successes.
  if (res.status < 200 || res.status > 400) throw new SessionFetchError(res.status, `HTTP ${res.status}`)
  return res.json() as Promise<unknown>
}

export async function postLogin(body: {
  access_token: string
  referral: string | null
  coupon: string | null
}): Promise<LoginResponse> {
  return parseLoginResponse(
    await call('/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
}

/** `GET /api/v2/user`: the subscription, bare or wrapped in `data` / `subscription`. */
export async function fetchSubscription(): Promise<SubscriptionState> {
  return parseSubscription(unwrap(await call('/user'), 'subscription'))
}

export function unwrap(body: unknown, key: string): unknown {
  let current = body
  for (let i = 0; i < 3 && isObject(current); i++) {
    if (key in current) return current[key]
    if (!('data' in current)) break
    current = current.data
  }
  return current
}

/** How long a logout waits for the server before the device is wiped anyway. */
const LOGOUT_TIMEOUT_MS = 5_000

/**
 * `POST /api/v2/logout` with the current bearer: the server ends the session. Resolves false when the
 * server could not be told (offline, timeout, error): the session then ends by itself after its idle
 * period. A 401 here is not a new sign-out to announce; the caller is signing out already.
 */
export async function postLogout(): Promise<boolean> {
  const token = apiToken()
  if (!token) return false
  try {
    const res = await fetch('/api/v2/logout', {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        Authorization: `Bearer ${token}`,
      },
      cache: 'no-store',
      signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS),
    })
    return res.ok || res.status === 401
  } catch {
    return false
  }
}

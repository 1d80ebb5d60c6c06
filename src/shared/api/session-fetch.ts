/**
 * The two API calls of the start-up and login path (`POST /login`, `GET /user`) without the notifications of
 * the full client, so the login screen loads without it. Failures reject with an `ApiError` whose status is 0
 * when the network never answered; the login screen states the failure itself.
 */
import type { LoginResponse, SubscriptionState } from '../../core/contracts/api.ts'
import { isObject, parseLoginResponse, parseSubscription } from './guards.ts'
import { ApiError, apiAnswer, failure, isSuccess, type ApiCall } from '../../core/api/request.ts'
import { apiToken, clearSessionToken } from './session-cookie.ts'
import { notifyUnauthorized } from './unauthorized.ts'

/** True when the request never reached the server (offline, DNS, connection cut). */
export const isNetworkFailure = (error: unknown): boolean => error instanceof ApiError && error.status === 0

async function call(path: string, init: ApiCall = {}): Promise<unknown> {
  const answer = await apiAnswer(path, { ...init, cache: 'no-store' }, { token: apiToken })
  if (answer.status === 401) {
    clearSessionToken()
    notifyUnauthorized()
  }
  if (!isSuccess(answer.status)) throw failure(answer)
  return answer.body
}

export async function postLogin(body: {
  access_token: string
  referral: string | null
  coupon: string | null
}): Promise<LoginResponse> {
  return parseLoginResponse(await call('/login', { method: 'POST', body }))
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
    const answer = await apiAnswer(
      '/logout',
      { method: 'POST', cache: 'no-store', signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS) },
      { token: () => token },
    )
    return isSuccess(answer.status) || answer.status === 401
  } catch {
    return false
  }
}

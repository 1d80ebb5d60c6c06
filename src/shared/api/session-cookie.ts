/**
 * The API bearer lives only in the `pagecast_session` cookie (never in localStorage or IndexedDB). The server
 * sets it at login for the session's idle period and renews it as the session is used; the app reads it to
 * send it as its bearer, and drops it when the session ends. Path `/`, SameSite=Strict, Secure on https
 * (docs/product-rules.md#constants-and-limits).
 */
import { SESSION_COOKIE } from '../../core/constants/limits.ts'
import { cookieValue } from '../../core/api/cookie-header.ts'

export { SESSION_COOKIE }

/** The bearer token of the product API, or undefined when logged out. */
export function apiToken(): string | undefined {
  return cookieValue(document.cookie, SESSION_COOKIE) || undefined
}

export function hasSessionCookie(): boolean {
  return apiToken() !== undefined
}

/** Drops the cookie at once (a sign-out, a session the server no longer knows). */
export function clearSessionToken(): void {
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  document.cookie = `${SESSION_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict${secure}`
}

/**
 * The API bearer lives only in the `pagecast_session` cookie (never in localStorage or IndexedDB).
 * Ten years, path `/`, SameSite=Strict, Secure on https (docs/product-rules.md#constants-and-limits).
 */
import { SESSION_COOKIE, SESSION_COOKIE_MAX_AGE_S } from '../constants/limits.ts'
import { cookieValue } from './cookie-header.ts'

export { SESSION_COOKIE }

function attributes(maxAge: number): string {
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  return `; Max-Age=${maxAge}; Path=/; SameSite=Strict${secure}`
}

/** The bearer token of the product API, or undefined when logged out. */
export function apiToken(): string | undefined {
  return cookieValue(document.cookie, SESSION_COOKIE) || undefined
}

export function hasSessionCookie(): boolean {
  return apiToken() !== undefined
}

export function saveSessionToken(token: string): void {
  document.cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}${attributes(SESSION_COOKIE_MAX_AGE_S)}`
}

export function clearSessionToken(): void {
  document.cookie = `${SESSION_COOKIE}=${attributes(0)}`
}

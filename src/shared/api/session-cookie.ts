/**
 * The API bearer lives only in the `pagecast_session` cookie (never in localStorage or IndexedDB).
 * Ten years, path `/`, SameSite=Strict, Secure on https (spec section 9).
 */
import { SESSION_COOKIE, SESSION_COOKIE_MAX_AGE_S } from '../constants/limits.ts'

export { SESSION_COOKIE }

function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return undefined
}

function attributes(maxAge: number): string {
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  return `; Max-Age=${maxAge}; Path=/; SameSite=Strict${secure}`
}

/** The bearer token of the product API, or undefined when logged out. */
export function apiToken(): string | undefined {
  return readCookie(SESSION_COOKIE) || undefined
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

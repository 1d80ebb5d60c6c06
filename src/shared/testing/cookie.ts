/** The session cookie a login's answer leaves in the browser (the server sets it: `src/server/http/session-cookie.ts`). */
import { SESSION_COOKIE } from '../../core/constants/limits.ts'

export function signedInCookie(token: string): void {
  document.cookie = `${SESSION_COOKIE}=${token}; Max-Age=3600; Path=/; SameSite=Strict`
}

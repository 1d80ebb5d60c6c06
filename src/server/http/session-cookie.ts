/**
 * The `pagecast_session` cookie: set by the login, renewed whenever a use moves the session's idle period
 * forward (the app drops it itself when the session ends, after wiping the device). It lives exactly as long
 * as the session does without use (`SESSION_IDLE_DAYS`), on the whole site, SameSite=Strict, and Secure over
 * https. It stays readable by the app's own scripts, which send its value as their bearer: the API never takes
 * the cookie alone as credentials for a change (README, "The session cookie").
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { SESSION_COOKIE } from '../../core/constants/limits.ts'

/** Sets the cookie to `token` for the session's idle period. */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  idleDays: number,
): void {
  const secure = request.protocol === 'https' ? '; Secure' : ''
  const maxAge = Math.round(idleDays * 86_400)
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${token}; Max-Age=${maxAge}; Path=/; SameSite=Strict${secure}`,
  )
}

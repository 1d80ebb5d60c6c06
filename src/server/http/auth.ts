/**
 * Bearer sessions: a token is 32 random bytes (base64url) handed to the client once; the server keeps only
 * its SHA-256, so a copy of the database cannot be replayed as a login. A session ends on logout, when its
 * owner revokes it, or after `SESSION_IDLE_DAYS` without use (sliding: each use starts the period again).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { SESSION_COOKIE } from '../../core/constants/limits.ts'
import { cookieValue } from '../../core/api/cookie-header.ts'
import type { ReadCache } from '../db/read-cache.ts'
import type { Queryable } from '../db/store.ts'
import {
  SESSION_TOUCH_MINUTES,
  deleteSessionByHash,
  hashToken,
  sessionByHash,
  touchSession,
} from '../repo/sessions.ts'
import { unauthorized } from './errors.ts'
import { setSessionCookie } from './session-cookie.ts'

export interface AuthUser {
  id: string
  facebook_id: string
  name: string
  email: string | null
}

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null
    /** The caller's session id (`sessions.id`), never the token nor its hash. */
    authSessionId: string | null
  }
}

export { hashToken, newToken } from '../repo/sessions.ts'

export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/.exec(header)
  return match?.[1]
}

/** Who a live session belongs to, as the lookup found it. */
export interface SessionCaller {
  user: AuthUser
  sessionId: string
  /** Its last use is older than `SESSION_TOUCH_MINUTES` and has not been moved forward since. */
  stale: boolean
}

/**
 * The live session of a token hash, or undefined when there is none. A session past its idle period is
 * deleted and refused with 401. Both comparisons use the database's clock.
 */
export async function lookupSession(
  db: Queryable,
  hash: string,
  idleSeconds: number,
): Promise<SessionCaller | undefined> {
  const row = await sessionByHash(db, hash, idleSeconds, SESSION_TOUCH_MINUTES)
  if (!row) return undefined
  if (row.expired) {
    await deleteSessionByHash(db, hash)
    throw unauthorized('Unauthenticated: the session expired after a period without use.')
  }
  const user = { id: String(row.id), facebook_id: row.facebook_id, name: row.name, email: row.email }
  return { user, sessionId: String(row.session_id), stale: row.stale }
}

export interface AuthOptions {
  /** Keeps the lookup for a moment (invalidated by any write to sessions or users through this store). */
  cache?: ReadCache<SessionCaller | undefined> | undefined
  /**
   * Where the last use is moved forward: a write that changes nothing a cached lookup holds, so it may go
   * around the write watch (otherwise every refresh would drop every cached session). Default `db`.
   */
  refresh?: Queryable | undefined
}

/**
 * Resolves the caller or throws 401; the handler then reads `request.authUser`. A live session has its last
 * use moved forward when it is older than `SESSION_TOUCH_MINUTES`; the browser's session cookie, when the
 * request carried it, is then renewed for the same period.
 */
export function authenticate(db: Queryable, idleDays: number, options: AuthOptions = {}) {
  const idleSeconds = idleDays * 86_400
  const { cache, refresh = db } = options
  return async (request: FastifyRequest, reply?: FastifyReply): Promise<void> => {
    const token = bearer(request)
    if (!token) throw unauthorized('Unauthenticated: a bearer token is required.')
    const hash = hashToken(token)
    const load = () => lookupSession(db, hash, idleSeconds)
    const caller = cache ? await cache.get(hash, load) : await load()
    if (!caller) throw unauthorized('Unauthenticated: the session is unknown or has ended.')
    if (caller.stale) {
      await touchSession(refresh, hash)
      caller.stale = false
      if (reply && cookieValue(request.headers.cookie, SESSION_COOKIE) === token)
        setSessionCookie(request, reply, token, idleDays)
    }
    request.authUser = caller.user
    request.authSessionId = caller.sessionId
  }
}

export function currentSessionId(request: FastifyRequest): string {
  if (!request.authSessionId) throw unauthorized()
  return request.authSessionId
}

export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthorized()
  return request.authUser
}

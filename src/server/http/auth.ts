/**
 * Bearer sessions: a token is 32 random bytes (base64url) handed to the client once; the server keeps only
 * its SHA-256, so a copy of the database cannot be replayed as a login. A session ends on logout, when its
 * owner revokes it, or after `SESSION_IDLE_DAYS` without use (sliding: each use starts the period again).
 */
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { SESSION_COOKIE } from '../../shared/constants/limits.ts'
import { cookieValue } from '../../shared/api/cookie-header.ts'
import type { ReadCache } from '../db/read-cache.ts'
import type { Queryable } from '../db/store.ts'
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

export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

/** The last use is written at most this often per session: a read of the API is not a write each time. */
export const SESSION_TOUCH_MINUTES = 5
/** What is kept of the User-Agent header to name the device in the sessions list. */
const USER_AGENT_MAX = 400

/**
 * The session a login answers with. The app logs in again at every start (the social login is checked anew),
 * so a login that carries the device's current bearer (`current`) of the same user keeps that session and
 * answers with the same token: one device stays one session in the list, and other tabs holding the token
 * (the bulk sender keeps it in memory) go on working. A bearer of someone else is ended and replaced.
 */
export async function openSession(
  db: Queryable,
  userId: string,
  userAgent?: string,
  current?: string,
): Promise<string> {
  if (current) {
    const kept = await db.query<{ user_id: number | string }>(
      `UPDATE sessions SET last_used_at = now() WHERE token_hash = $1 AND user_id = $2 RETURNING user_id`,
      [hashToken(current), userId],
    )
    if (kept.length > 0) return current
    await db.query('DELETE FROM sessions WHERE token_hash = $1', [hashToken(current)])
  }
  const token = newToken()
  await db.query('INSERT INTO sessions (token_hash, user_id, user_agent) VALUES ($1, $2, $3)', [
    hashToken(token),
    userId,
    userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
  ])
  return token
}

/** Deletes every session unused for longer than the idle period (run at each login). */
export async function deleteExpiredSessions(db: Queryable, idleDays: number): Promise<void> {
  await db.query(`DELETE FROM sessions WHERE last_used_at <= now() - make_interval(secs => $1)`, [
    idleDays * 86_400,
  ])
}

export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/.exec(header)
  return match?.[1]
}

interface SessionRow {
  id: number
  facebook_id: string
  name: string
  email: string | null
  session_id: number | string
  expired: boolean
  stale: boolean
}

/** Who a live session belongs to, as the lookup found it. */
export interface SessionCaller {
  user: AuthUser
  sessionId: string
  /** Its last use is older than `SESSION_TOUCH_MINUTES` and has not been moved forward since. */
  stale: boolean
}

export const SESSION_LOOKUP = `SELECT u.id, u.facebook_id, u.name, u.email, s.id AS session_id,
    s.last_used_at <= now() - make_interval(secs => $2) AS expired,
    s.last_used_at <= now() - make_interval(mins => $3) AS stale
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.token_hash = $1`

/**
 * The live session of a token hash, or undefined when there is none. A session past its idle period is
 * deleted and refused with 401. Both comparisons use the database's clock.
 */
export async function lookupSession(
  db: Queryable,
  hash: string,
  idleSeconds: number,
): Promise<SessionCaller | undefined> {
  const row = (await db.query<SessionRow>(SESSION_LOOKUP, [hash, idleSeconds, SESSION_TOUCH_MINUTES]))[0]
  if (!row) return undefined
  if (row.expired) {
    await db.query('DELETE FROM sessions WHERE token_hash = $1', [hash])
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
      await refresh.query('UPDATE sessions SET last_used_at = now() WHERE token_hash = $1', [hash])
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

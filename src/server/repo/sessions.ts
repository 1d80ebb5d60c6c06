/**
 * The `sessions` table: one row per device logged in, keyed by the SHA-256 of its bearer token (the token
 * itself is never stored). The bearer check (idle period, sliding use) is in http/auth.ts.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Queryable } from '../db/store.ts'

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

/** A session as the bearer lookup reads it: its user, and how old its last use is on the database's clock. */
export interface SessionLookupRow {
  id: number
  facebook_id: string
  name: string
  email: string | null
  session_id: number | string
  expired: boolean
  stale: boolean
}

/** A session as the sessions list shows it (no secret). */
export interface SessionListRow {
  id: number | string
  created_at: Date | string
  last_used_at: Date | string
  user_agent: string | null
}

/**
 * The session of a token hash with its user; `expired` when unused for `idleSeconds`, `stale` when unused
 * for `touchMinutes`.
 */
export async function sessionByHash(
  db: Queryable,
  hash: string,
  idleSeconds: number,
  touchMinutes: number,
): Promise<SessionLookupRow | undefined> {
  const [row] = await db.query<SessionLookupRow>(
    `SELECT u.id, u.facebook_id, u.name, u.email, s.id AS session_id,
        s.last_used_at <= now() - make_interval(secs => $2) AS expired,
        s.last_used_at <= now() - make_interval(mins => $3) AS stale
      FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1`,
    [hash, idleSeconds, touchMinutes],
  )
  return row
}

/** Moves the last use of the session of this hash to now. */
export async function touchSession(db: Queryable, hash: string): Promise<void> {
  await db.query('UPDATE sessions SET last_used_at = now() WHERE token_hash = $1', [hash])
}

export async function deleteSessionByHash(db: Queryable, hash: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [hash])
}

/** Ends a session by its id (logout). */
export async function deleteSession(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE id = $1', [id])
}

/** The user's sessions, last used first. */
export async function userSessions(db: Queryable, userId: string): Promise<SessionListRow[]> {
  return db.query<SessionListRow>(
    `SELECT id, created_at, last_used_at, user_agent FROM sessions WHERE user_id = $1
      ORDER BY last_used_at DESC, id DESC`,
    [userId],
  )
}

/** Ends one of the user's sessions; answers false when the user has no session of this id. */
export async function deleteUserSession(db: Queryable, id: string, userId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2 RETURNING id', [
    id,
    userId,
  ])
  return rows.length > 0
}

/** Ends every session of the user but `keptId`; answers how many ended. */
export async function deleteOtherSessions(db: Queryable, userId: string, keptId: string): Promise<number> {
  const rows = await db.query('DELETE FROM sessions WHERE user_id = $1 AND id <> $2 RETURNING id', [
    userId,
    keptId,
  ])
  return rows.length
}

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
    const kept = await db.query(
      'UPDATE sessions SET last_used_at = now() WHERE token_hash = $1 AND user_id = $2 RETURNING user_id',
      [hashToken(current), userId],
    )
    if (kept.length > 0) return current
    await deleteSessionByHash(db, hashToken(current))
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
  await db.query('DELETE FROM sessions WHERE last_used_at <= now() - make_interval(secs => $1)', [
    idleDays * 86_400,
  ])
}

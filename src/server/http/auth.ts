/**
 * Bearer sessions: a token is 32 random bytes (base64url) handed to the client once; the server keeps only
 * its SHA-256, so a copy of the database cannot be replayed as a login.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { Queryable } from '../db/store.ts'
import { unauthorized } from './errors.ts'

export interface AuthUser {
  id: string
  facebook_id: string
  name: string
  email: string | null
}

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | null
  }
}

export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export async function createSession(db: Queryable, userId: string): Promise<string> {
  const token = newToken()
  await db.query('INSERT INTO sessions (token_hash, user_id) VALUES ($1, $2)', [hashToken(token), userId])
  return token
}

export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (!header) return undefined
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/.exec(header)
  return match?.[1]
}

/** Resolves the caller or throws 401; the handler then reads `request.authUser`. */
export function authenticate(db: Queryable) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearer(request)
    if (!token) throw unauthorized('Unauthenticated: a bearer token is required.')
    const rows = await db.query<{ id: number; facebook_id: string; name: string; email: string | null }>(
      `SELECT u.id, u.facebook_id, u.name, u.email FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1`,
      [hashToken(token)],
    )
    const row = rows[0]
    if (!row) throw unauthorized('Unauthenticated: the session is unknown or has ended.')
    request.authUser = { ...row, id: String(row.id) }
  }
}

export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthorized()
  return request.authUser
}

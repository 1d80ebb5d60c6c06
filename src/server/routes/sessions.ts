/**
 * The signed-in user's sessions (one per device logged in): listed without any secret, revoked one by one
 * or all but the caller's ("sign out everywhere else"). A session of another user is answered 404, never
 * revoked. Revoking the caller's own session by id is allowed and is the same as logging out.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { revokeOthersBody, type SessionInfo } from '../../core/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { currentSessionId, currentUser } from '../http/auth.ts'
import { deviceLabel } from '../http/device-label.ts'
import { notFound, parse } from '../http/errors.ts'
import { deleteOtherSessions, deleteUserSession, userSessions } from '../repo/sessions.ts'

/** A `BIGSERIAL` in decimal: digits only, and short enough to be a 64-bit number. */
const sessionParams = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Must be a session id.') })

const iso = (value: Date | string) => new Date(value).toISOString()

export function sessionListRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const db = ctx.store

  app.get('/sessions', auth, async (request) => {
    const user = currentUser(request)
    const current = currentSessionId(request)
    const rows = await userSessions(db, user.id)
    const data: SessionInfo[] = rows.map((r) => ({
      id: String(r.id),
      created_at: iso(r.created_at),
      last_used_at: iso(r.last_used_at),
      device: deviceLabel(r.user_agent),
      user_agent: r.user_agent,
      current: String(r.id) === current,
    }))
    return { data }
  })

  app.delete('/sessions/:id', auth, async (request) => {
    const { id } = parse(sessionParams, request.params)
    if (!(await deleteUserSession(db, id, currentUser(request).id))) throw notFound('No such session.')
    return { ok: true, current: id === currentSessionId(request) }
  })

  /** Every session of the caller but this one: the device in hand stays signed in (its own logout ends it). */
  app.post('/sessions/revoke-others', auth, async (request) => {
    parse(revokeOthersBody, request.body)
    return { revoked: await deleteOtherSessions(db, currentUser(request).id, currentSessionId(request)) }
  })
}

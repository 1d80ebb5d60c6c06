/**
 * The signed-in user's saved replies: listed newest first, created up to a limit per user, edited and
 * deleted by id. Another user's reply is answered 404, exactly like one that does not exist.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  SAVED_REPLIES_PER_USER,
  type SavedReply,
  savedReplyBody,
} from '../../core/contracts/saved-replies.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { invalid, notFound, parse } from '../http/errors.ts'
import {
  type SavedReplyRow,
  deleteSavedReply,
  insertSavedReply,
  listSavedReplies,
  updateSavedReply,
} from '../repo/saved-replies.ts'

/** A `BIGSERIAL` in decimal: digits only, and short enough to be a 64-bit number. */
const params = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Must be a saved reply id.') })

const toReply = (r: SavedReplyRow): SavedReply => ({
  id: String(r.id),
  title: r.title,
  text: r.text,
  updated_at: new Date(r.updated_at).toISOString(),
})

export function savedReplyRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const db = ctx.store

  app.get('/saved-replies', auth, async (request) => {
    const rows = await listSavedReplies(db, currentUser(request).id)
    return { data: rows.map(toReply) }
  })

  app.post('/saved-replies', auth, async (request, reply) => {
    const body = parse(savedReplyBody, request.body ?? {})
    const userId = currentUser(request).id
    const saved = await insertSavedReply(db, userId, body, SAVED_REPLIES_PER_USER)
    if (!saved)
      throw invalid('text', `You can keep at most ${SAVED_REPLIES_PER_USER} saved replies; delete one first.`)
    return reply.code(201).send({ data: toReply(saved) })
  })

  app.put('/saved-replies/:id', auth, async (request) => {
    const { id } = parse(params, request.params)
    const body = parse(savedReplyBody, request.body ?? {})
    const saved = await updateSavedReply(db, id, currentUser(request).id, body)
    if (!saved) throw notFound('No such saved reply.')
    return { data: toReply(saved) }
  })

  app.delete('/saved-replies/:id', auth, async (request) => {
    const { id } = parse(params, request.params)
    if (!(await deleteSavedReply(db, id, currentUser(request).id))) throw notFound('No such saved reply.')
    return { ok: true }
  })
}

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
} from '../../shared/contracts/saved-replies.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { invalid, notFound, parse } from '../http/errors.ts'

/** A `BIGSERIAL` in decimal: digits only, and short enough to be a 64-bit number. */
const params = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Must be a saved reply id.') })

interface Row {
  id: number | string
  title: string
  text: string
  updated_at: Date | string
}

const COLUMNS = 'id, title, text, updated_at'

const toReply = (r: Row): SavedReply => ({
  id: String(r.id),
  title: r.title,
  text: r.text,
  updated_at: new Date(r.updated_at).toISOString(),
})

export function savedReplyRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const db = ctx.store

  app.get('/saved-replies', auth, async (request) => {
    const rows = await db.query<Row>(
      `SELECT ${COLUMNS} FROM saved_replies WHERE user_id = $1 ORDER BY updated_at DESC, id DESC`,
      [currentUser(request).id],
    )
    return { data: rows.map(toReply) }
  })

  app.post('/saved-replies', auth, async (request, reply) => {
    const body = parse(savedReplyBody, request.body ?? {})
    const userId = currentUser(request).id
    // The count and the insert are one statement, so two devices saving at once cannot pass the limit.
    const rows = await db.query<Row>(
      `INSERT INTO saved_replies (user_id, title, text)
       SELECT $1, $2, $3 WHERE (SELECT count(*) FROM saved_replies WHERE user_id = $1) < $4
       RETURNING ${COLUMNS}`,
      [userId, body.title, body.text, SAVED_REPLIES_PER_USER],
    )
    if (!rows[0])
      throw invalid('text', `You can keep at most ${SAVED_REPLIES_PER_USER} saved replies; delete one first.`)
    return reply.code(201).send({ data: toReply(rows[0]) })
  })

  app.put('/saved-replies/:id', auth, async (request) => {
    const { id } = parse(params, request.params)
    const body = parse(savedReplyBody, request.body ?? {})
    const rows = await db.query<Row>(
      `UPDATE saved_replies SET title = $3, text = $4, updated_at = now()
       WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
      [id, currentUser(request).id, body.title, body.text],
    )
    if (!rows[0]) throw notFound('No such saved reply.')
    return { data: toReply(rows[0]) }
  })

  app.delete('/saved-replies/:id', auth, async (request) => {
    const { id } = parse(params, request.params)
    const rows = await db.query<{ id: number | string }>(
      'DELETE FROM saved_replies WHERE id = $1 AND user_id = $2 RETURNING id',
      [id, currentUser(request).id],
    )
    if (rows.length === 0) throw notFound('No such saved reply.')
    return { ok: true }
  })
}

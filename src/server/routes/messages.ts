/** Stored bulk messages: create, list, finish or stop, delete (a user sees only their own). */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { createMessageBody, messageStateBody, type StoredMessage } from '../../shared/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import type { Queryable } from '../db/store.ts'
import { currentUser } from '../http/auth.ts'
import { notAcceptable, notFound, parse } from '../http/errors.ts'
import { requireBoundPage } from './page-access.ts'
import { PAGE_BANNED } from './pages.ts'

const idParams = z.object({ id: z.string() })
const listQuery = z.object({ state: z.enum(['open', 'all']).default('all') }).strict()

/** Ids are BIGSERIAL; anything else is simply not one of the caller's messages. */
export function messageId(params: unknown): string {
  const { id } = parse(idParams, params)
  if (!/^\d{1,15}$/.test(id)) throw notFound('Message not found.')
  return id
}

export async function ownMessage(
  db: Queryable,
  id: string,
  userId: string,
): Promise<{ total_messages: number }> {
  const row = (
    await db.query<{ total_messages: number }>(
      'SELECT total_messages FROM messages WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
      [id, userId],
    )
  )[0]
  if (!row) throw notFound('Message not found.')
  return row
}

interface MessageRow extends Omit<StoredMessage, 'id' | 'created_at'> {
  id: number
  created_at: Date
}

const COLUMNS = `id, page_id, message, image_url, tag, label, total_messages, branded_messages_amount, ok_count,
  ng_count, state, stop_reason, created_at`

export function messageRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const db = ctx.store

  app.post('/messages', auth, async (request, reply) => {
    const body = parse(createMessageBody, request.body)
    const userId = currentUser(request).id
    await requireBoundPage(db, userId, body.page_id)
    const banned = await db.query('SELECT 1 FROM pages WHERE id = $1 AND banned', [body.page_id])
    if (banned.length > 0) throw notAcceptable(PAGE_BANNED, 'page_banned')
    const row = (
      await db.query<{ id: number }>(
        `INSERT INTO messages (user_id, page_id, message_type_id, message, image_url, label, tag, total_messages, branded_messages_amount)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [
          userId,
          body.page_id,
          body.message_type_id,
          body.message,
          body.image_url ?? null,
          body.label,
          body.tag ?? null,
          body.total_messages,
          body.branded_messages_amount,
        ],
      )
    )[0]!
    return reply.code(201).send({ id: String(row.id) })
  })

  app.get('/messages', auth, async (request) => {
    const query = parse(listQuery, request.query)
    const rows = await db.query<MessageRow>(
      `SELECT ${COLUMNS} FROM messages WHERE user_id = $1 AND deleted_at IS NULL
       ${query.state === 'open' ? "AND state <> 'finished'" : ''} ORDER BY id`,
      [currentUser(request).id],
    )
    const data: StoredMessage[] = rows.map((r) => ({
      ...r,
      id: String(r.id),
      created_at: new Date(r.created_at).toISOString(),
    }))
    return { data }
  })

  app.post('/messages/:id/state', auth, async (request) => {
    const id = messageId(request.params)
    const body = parse(messageStateBody, request.body)
    const updated = await db.query(
      `UPDATE messages SET state = $3, stop_reason = $4 WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING id`,
      [id, currentUser(request).id, body.state, body.reason ?? null],
    )
    if (updated.length === 0) throw notFound('Message not found.')
    return { id, state: body.state }
  })

  app.delete('/messages/:id', auth, async (request) => {
    const id = messageId(request.params)
    // Kept as a record (its touches spent allowance); only hidden from the user's lists.
    const deleted = await db.query(
      'UPDATE messages SET deleted_at = now() WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING id',
      [id, currentUser(request).id],
    )
    if (deleted.length === 0) throw notFound('Message not found.')
    return { id, deleted: true }
  })
}

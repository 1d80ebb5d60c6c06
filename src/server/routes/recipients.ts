/** The recipients of a stored bulk message and their results: append, page through, touch. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  RECIPIENTS_PER_CALL_MAX,
  type RecipientsPage,
  recipientsBody,
  touchBody,
} from '../../shared/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { HttpError, parse } from '../http/errors.ts'
import { touch } from '../repo/touch.ts'
import { messageId, ownMessage } from './messages.ts'

const pageQuery = z
  .object({
    after: z
      .string()
      .regex(/^\d{1,18}$/, 'Invalid cursor')
      .optional(),
    limit: z.coerce.number().int().min(1).max(RECIPIENTS_PER_CALL_MAX).default(1000),
  })
  .strict()

/** 5,000 recipients with names of up to 300 characters in any script fit; the 1 MB default would not. */
const RECIPIENTS_BODY_LIMIT = 8 * 1024 * 1024

interface RecipientRow {
  seq: number
  recipient_id: string
  name: string
  conversation_id: string | null
  status: 'OK' | 'NG' | null
  sent_as_branded: boolean
}

export function recipientRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }

  app.put('/messages/:id/recipients', { ...auth, bodyLimit: RECIPIENTS_BODY_LIMIT }, async (request) => {
    const id = messageId(request.params)
    const { recipients } = parse(recipientsBody, request.body)
    const userId = currentUser(request).id
    return ctx.store.transaction(async (tx) => {
      const { total_messages } = await ownMessage(tx, id, userId)
      // unnest WITH ORDINALITY keeps the caller's order in the sequence numbers; repeats are ignored.
      const added = await tx.query(
        `INSERT INTO message_recipients (message_id, recipient_id, name, conversation_id)
         SELECT $1, r, n, c FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS t(r, n, c, o)
         ORDER BY o
         ON CONFLICT (message_id, recipient_id) DO NOTHING RETURNING recipient_id`,
        [
          id,
          recipients.map((r) => r.recipient_id),
          recipients.map((r) => r.name),
          recipients.map((r) => r.conversation_id),
        ],
      )
      const total = Number(
        (
          await tx.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM message_recipients WHERE message_id = $1',
            [id],
          )
        )[0]!.n,
      )
      if (total > total_messages) {
        throw new HttpError(422, 'The given data was invalid.', {
          recipients: [`This message has room for ${total_messages} recipients; ${total} would exceed it.`],
        })
      }
      return { added: added.length, total }
    })
  })

  app.get('/messages/:id/recipients', auth, async (request) => {
    const id = messageId(request.params)
    const query = parse(pageQuery, request.query)
    await ownMessage(ctx.store, id, currentUser(request).id)
    const rows = await ctx.store.query<RecipientRow>(
      `SELECT seq, recipient_id, name, conversation_id, status, sent_as_branded FROM message_recipients
       WHERE message_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [id, query.after ?? '0', query.limit + 1],
    )
    const more = rows.length > query.limit
    const page = more ? rows.slice(0, query.limit) : rows
    const body: RecipientsPage = {
      data: page.map(({ seq: _seq, conversation_id, ...r }) => ({
        ...r,
        conversation_id: conversation_id ?? '',
      })),
      next: more ? String(page[page.length - 1]!.seq) : null,
    }
    return body
  })

  const touchHandler = async (request: FastifyRequest) => {
    const id = messageId(request.params)
    const body = parse(touchBody, request.body)
    return touch(ctx.store, currentUser(request).id, id, body)
  }
  app.post('/messages/:id/touch', auth, touchHandler)
  app.put('/messages/:id/touch', auth, touchHandler)
}

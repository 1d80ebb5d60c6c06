/** Stored bulk messages: create, list, finish or stop, delete (a user sees only their own). */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { createMessageBody, messageStateBody } from '../../shared/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { HttpError, notAcceptable, notFound, parse } from '../http/errors.ts'
import {
  createMessage,
  hideMessage,
  listMessages,
  MessageNotFound,
  RecipientsOverflow,
  setMessageState,
} from '../repo/messages.ts'
import { AllowanceRefused } from '../repo/touch.ts'
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

/** The messages repositories' domain errors as HTTP answers. */
export async function answering<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (err) {
    if (err instanceof MessageNotFound) throw notFound(err.message)
    if (err instanceof AllowanceRefused) throw notAcceptable(err.message, err.code)
    if (err instanceof RecipientsOverflow)
      throw new HttpError(422, 'The given data was invalid.', { recipients: [err.message] })
    throw err
  }
}

export function messageRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const db = ctx.store

  app.post('/messages', auth, async (request, reply) => {
    const body = parse(createMessageBody, request.body)
    const userId = currentUser(request).id
    await requireBoundPage(db, userId, body.page_id)
    const banned = await db.query('SELECT 1 FROM pages WHERE id = $1 AND banned', [body.page_id])
    if (banned.length > 0) throw notAcceptable(PAGE_BANNED, 'page_banned')
    return reply.code(201).send({ id: await createMessage(db, userId, body) })
  })

  app.get('/messages', auth, async (request) => {
    const query = parse(listQuery, request.query)
    return { data: await listMessages(db, currentUser(request).id, query.state === 'open') }
  })

  app.post('/messages/:id/state', auth, async (request) => {
    const id = messageId(request.params)
    const body = parse(messageStateBody, request.body)
    await answering(setMessageState(db, id, currentUser(request).id, body))
    return { id, state: body.state }
  })

  app.delete('/messages/:id', auth, async (request) => {
    const id = messageId(request.params)
    await answering(hideMessage(db, id, currentUser(request).id))
    return { id, deleted: true }
  })
}

/** Stored bulk messages: create, list, finish or stop, delete (a user sees only their own). */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { planAudience } from '../../core/bulk/allowance.ts'
import { createMessageBody, messageStateBody } from '../../core/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { HttpError, invalid, notAcceptable, notFound, parse } from '../http/errors.ts'
import {
  createMessage,
  hideMessage,
  listMessages,
  MessageNotFound,
  RecipientsOverflow,
  setMessageState,
} from '../repo/messages.ts'
import { pageBanned } from '../repo/pages.ts'
import { hasAccess, loadSubscription, type SubscriptionRow, toState } from '../repo/subscriptions.ts'
import { AllowanceRefused, TouchRefused } from '../repo/touch.ts'
import { publishProgress } from '../bulk/progress.ts'
import { requireBoundPage } from './page-access.ts'
import { PAGE_BANNED } from './pages.ts'

const idParams = z.object({ id: z.string() })
const listQuery = z
  .object({
    state: z.enum(['open', 'all']).default('all'),
    /** Only this page's messages (a page the caller manages). */
    page_id: z
      .string()
      .regex(/^\d{1,64}$/, 'Invalid page id')
      .optional(),
  })
  .strict()

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
    if (err instanceof TouchRefused) throw new HttpError(409, err.message)
    if (err instanceof RecipientsOverflow)
      throw new HttpError(422, 'The given data was invalid.', { recipients: [err.message] })
    throw err
  }
}

/**
 * Why `branded` of `total` recipients may not carry the footer, or undefined when they may: only with branded
 * messages authorised, and only those the allowance does not cover now, as the wizard plans them (none with
 * nothing available, an unlimited subscription or an ended one).
 */
function brandedRefusal(sub: SubscriptionRow, total: number, branded: number): string | undefined {
  if (branded === 0) return undefined
  if (!sub.use_branded_messages) return 'Branded messages have not been authorised for this account.'
  const plan = planAudience(total, toState(sub))
  const room = hasAccess(sub) && plan.brandedFrom >= 0 ? plan.count - plan.brandedFrom : 0
  return branded > room
    ? `At most ${room} of these messages can be branded: the allowance covers the others.`
    : undefined
}

export function messageRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const db = ctx.store

  app.post('/messages', auth, async (request, reply) => {
    const body = parse(createMessageBody, request.body)
    const userId = currentUser(request).id
    await requireBoundPage(db, userId, body.page_id)
    if (await pageBanned(db, body.page_id)) throw notAcceptable(PAGE_BANNED, 'page_banned')
    const refusal = brandedRefusal(
      await loadSubscription(db, userId),
      body.total_messages,
      body.branded_messages_amount,
    )
    if (refusal) throw invalid('branded_messages_amount', refusal)
    return reply.code(201).send({ id: await createMessage(db, userId, body) })
  })

  app.get('/messages', auth, async (request) => {
    const query = parse(listQuery, request.query)
    const userId = currentUser(request).id
    if (query.page_id) await requireBoundPage(db, userId, query.page_id)
    return { data: await listMessages(db, userId, query.state === 'open', query.page_id) }
  })

  app.post('/messages/:id/state', auth, async (request) => {
    const id = messageId(request.params)
    const body = parse(messageStateBody, request.body)
    await answering(setMessageState(db, id, currentUser(request).id, body))
    // Every device of the owner shows the job's end at once.
    await publishProgress({ store: db, now: Date.now, log: request.log }, id)
    return { id, state: body.state }
  })

  app.delete('/messages/:id', auth, async (request) => {
    const id = messageId(request.params)
    await answering(hideMessage(db, id, currentUser(request).id))
    return { id, deleted: true }
  })
}

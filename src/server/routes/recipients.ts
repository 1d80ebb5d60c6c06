/** The recipients of a stored bulk message and their results: append, page through, touch. */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { RECIPIENTS_PER_CALL_MAX, recipientsBody, touchBody } from '../../core/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { userLimited } from '../http/user-limit.ts'
import { parse } from '../http/errors.ts'
import { appendRecipients, recipientsPage } from '../repo/message-recipients.ts'
import { touch } from '../repo/touch.ts'
import { fence } from '../bulk/lease.ts'
import { progressed } from '../bulk/progress.ts'
import { leaseAnswer } from './handover.ts'
import { answering, messageId } from './messages.ts'

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

export function recipientRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }

  app.put(
    '/messages/:id/recipients',
    { ...userLimited(ctx), bodyLimit: RECIPIENTS_BODY_LIMIT },
    async (request) => {
      const id = messageId(request.params)
      const { recipients } = parse(recipientsBody, request.body)
      const userId = currentUser(request).id
      return answering(appendRecipients(ctx.store, id, userId, recipients))
    },
  )

  app.get('/messages/:id/recipients', auth, async (request) => {
    const id = messageId(request.params)
    const query = parse(pageQuery, request.query)
    return answering(recipientsPage(ctx.store, id, currentUser(request).id, query.after, query.limit))
  })

  const touchHandler = async (request: FastifyRequest) => {
    const id = messageId(request.params)
    const { epoch, ...body } = parse(touchBody, request.body)
    const userId = currentUser(request).id
    // A device's result carries its lease's epoch: one of an earlier holder is refused.
    if (epoch !== undefined)
      await answering(fence(ctx.store, userId, id, epoch)).catch((err: unknown) => {
        throw leaseAnswer(err)
      })
    const answer = await answering(touch(ctx.store, userId, id, body))
    // The owner's other devices follow the job live (at most one event every 2 s per job).
    await progressed({ store: ctx.store, now: Date.now, log: request.log }, id, 'device')
    return answer
  }
  app.post('/messages/:id/touch', auth, touchHandler)
  app.put('/messages/:id/touch', auth, touchHandler)
}

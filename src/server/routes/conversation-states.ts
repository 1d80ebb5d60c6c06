/**
 * Who is waiting for an answer, shared by everyone who manages a page: `GET /pages/:pageId/conversation-states`
 * lists the page's states, `POST /pages/:pageId/conversation-history` keeps what the network's list told a person's
 * app of conversations the server has no state of (answering the states of those named), `POST .../:customerId/done` marks a conversation done, `POST .../:customerId/seen`
 * says a person opened it (nothing unread), and `POST /pages/:pageId/replying` tells the page's other people
 * that this one is writing a reply (a live `replying` event, at most one per customer every 2 s per user);
 * `POST /pages/:pageId/labels-changed` tells them that this one changed customers' labels (a live `labels`
 * event: the network tells no one, so their open chats read the labels again).
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  conversationHistoryBody,
  labelsChangedBody,
  REPLYING_FOR_MS,
  replyingBody,
} from '../../core/contracts/conversation-states.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { notAcceptable, parse } from '../http/errors.ts'
import { markDone, markSeen, pageStates, recordHistory, undoDone } from '../repo/conversation-states.ts'
import { pageOwners, publishToUsersNow } from '../repo/owner-events.ts'
import { requireBoundPage } from './page-access.ts'

const digits = (what: string) => z.string().regex(/^\d{1,32}$/, `Must be a ${what} id (digits).`)
const pageParams = z.object({ pageId: digits('page') }).strict()
const customerParams = z.object({ pageId: digits('page'), customerId: digits('customer') }).strict()

/** Repeats closer than this are dropped: a typing person's app repeats every 4 s at most. */
const REPLYING_MIN_GAP_MS = 2_000
const MAX_REMEMBERED = 10_000

export function conversationStateRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const lastReplying = new Map<string, number>()

  app.get('/pages/:pageId/conversation-states', auth, async (request) => {
    const { pageId } = parse(pageParams, request.params)
    await requireBoundPage(ctx.store, currentUser(request).id, pageId)
    return { data: await pageStates(ctx.store, pageId) }
  })

  app.post('/pages/:pageId/conversation-history', auth, async (request) => {
    const { pageId } = parse(pageParams, request.params)
    const body = parse(conversationHistoryBody, request.body ?? {})
    await requireBoundPage(ctx.store, currentUser(request).id, pageId)
    return { data: await recordHistory(ctx.store, pageId, body.conversations) }
  })

  app.post('/pages/:pageId/conversation-states/:customerId/done', auth, async (request) => {
    const { pageId, customerId } = parse(customerParams, request.params)
    const user = currentUser(request)
    await requireBoundPage(ctx.store, user.id, pageId)
    return { data: await markDone(ctx.store, pageId, customerId, user.id) }
  })

  app.delete('/pages/:pageId/conversation-states/:customerId/done', auth, async (request) => {
    const { pageId, customerId } = parse(customerParams, request.params)
    const user = currentUser(request)
    await requireBoundPage(ctx.store, user.id, pageId)
    const state = await undoDone(ctx.store, pageId, customerId, user.id)
    if (!state)
      throw notAcceptable(
        'Only the last "done" of this person can be taken back, while nothing newer happened in the conversation.',
        'done_changed',
      )
    return { data: state }
  })

  app.post('/pages/:pageId/conversation-states/:customerId/seen', auth, async (request) => {
    const { pageId, customerId } = parse(customerParams, request.params)
    await requireBoundPage(ctx.store, currentUser(request).id, pageId)
    return { data: (await markSeen(ctx.store, pageId, customerId)) ?? null }
  })

  app.post('/pages/:pageId/replying', auth, async (request) => {
    const { pageId } = parse(pageParams, request.params)
    const body = parse(replyingBody, request.body ?? {})
    const user = currentUser(request)
    await requireBoundPage(ctx.store, user.id, pageId)
    const key = `${user.id}:${pageId}:${body.customer_id}`
    const now = Date.now()
    if (now - (lastReplying.get(key) ?? 0) < REPLYING_MIN_GAP_MS) return { ok: true, sent: false }
    if (lastReplying.size >= MAX_REMEMBERED) lastReplying.clear()
    lastReplying.set(key, now)
    const others = (await pageOwners(ctx.store, pageId)).filter((id) => id !== user.id)
    await publishToUsersNow(ctx.store, others, 'replying', {
      pageId,
      customerId: body.customer_id,
      userId: user.id,
      name: user.name,
      until: new Date(now + REPLYING_FOR_MS).toISOString(),
    })
    return { ok: true, sent: true }
  })

  app.post('/pages/:pageId/labels-changed', auth, async (request) => {
    const { pageId } = parse(pageParams, request.params)
    const body = parse(labelsChangedBody, request.body ?? {})
    const user = currentUser(request)
    await requireBoundPage(ctx.store, user.id, pageId)
    const others = (await pageOwners(ctx.store, pageId)).filter((id) => id !== user.id)
    await publishToUsersNow(ctx.store, others, 'labels', {
      pageId,
      customerIds: [...new Set(body.customer_ids)],
    })
    return { ok: true }
  })
}

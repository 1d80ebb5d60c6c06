/** Inspection and fault API for tests and demos (documented in the README). */
import type { FastifyInstance } from 'fastify'
import { REQUIRED_PERMISSIONS } from '../../core/constants/limits.ts'
import type { SandboxContext } from '../context.ts'
import { mergeFaults, NO_FAULTS } from '../faults.ts'
import { USER_KEYS, type UserKey } from '../state/demo.ts'

export function isUserKey(v: unknown): v is UserKey {
  return (USER_KEYS as readonly unknown[]).includes(v)
}

export function registerInspect(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/health', async () => ({ ok: true }))

  app.get('/sent', async () => ({ data: ctx.store.sent }))

  app.get('/sender-actions', async () => ({ data: ctx.store.senderActions }))

  app.get('/faults', async () => ctx.faults)
  app.post('/faults', async (request) => {
    ctx.faults = mergeFaults(ctx.faults, request.body)
    ctx.faultSends = 0
    return ctx.faults
  })

  app.post('/reset', async (request) => {
    const body = (request.body ?? {}) as { rebase?: boolean }
    if (body.rebase === true) ctx.store.startMs = Date.now()
    ctx.store.load()
    ctx.marketing.load()
    ctx.utility.load()
    ctx.faults = { ...NO_FAULTS }
    ctx.faultSends = 0
    ctx.push.reset()
    ctx.webhooks.clear()
    ctx.webhooks.log.length = 0
    ctx.tokens.clearExpired()
    return { ok: true, start: new Date(ctx.store.startMs).toISOString() }
  })

  /** The webhooks sent (or dropped by a fault) and the pages subscribed to them. */
  app.get('/webhooks', async () => ({
    url: ctx.options.messengerWebhookUrl ?? null,
    subscribed: Object.fromEntries(ctx.store.subscribedFields),
    log: ctx.webhooks.log,
  }))

  /**
   * A customer writes now: to `customer_id` on `page_id` when given, else on a random conversation of the
   * demo user's pages; with `new_customer` (a name) and `page_id`, a customer who never wrote to the page
   * before (a new conversation; `customer_id` may give its id). The message is in the page's conversations
   * and goes out as a webhook.
   */
  app.post('/customer-message', async (request, reply) => {
    const body = (request.body ?? {}) as {
      page_id?: unknown
      customer_id?: unknown
      text?: unknown
      new_customer?: unknown
    }
    const text = typeof body.text === 'string' && body.text.trim() ? body.text.slice(0, 2000) : undefined
    let conv
    if (typeof body.new_customer === 'string' && body.new_customer.trim()) {
      if (typeof body.page_id !== 'string') return reply.status(400).send({ error: 'page_id is required' })
      const customerId = typeof body.customer_id === 'string' ? body.customer_id : undefined
      if (customerId && ctx.store.conversationWith(body.page_id, customerId))
        return reply.status(409).send({ error: 'that customer already has a conversation with the page' })
      conv = ctx.store.newConversation(body.page_id, body.new_customer.trim().slice(0, 100), customerId)
      if (!conv) return reply.status(404).send({ error: 'no such page' })
      ctx.store.addMessage(conv, {
        createdMs: Date.now(),
        fromPage: false,
        text: text ?? 'Hello, is this still available?',
      })
    } else if (typeof body.page_id === 'string' && typeof body.customer_id === 'string') {
      conv = ctx.store.conversationWith(body.page_id, body.customer_id)
      if (!conv) return reply.status(404).send({ error: 'no conversation with that customer on that page' })
      ctx.store.addMessage(conv, {
        createdMs: Date.now(),
        fromPage: false,
        text: text ?? 'Hello, is this still available?',
      })
    } else {
      const pages =
        typeof body.page_id === 'string' ? [body.page_id] : ctx.store.pagesOf('demo').map((p) => p.id)
      for (let i = 0; i < 10 && !conv; i++) conv = ctx.store.liveMessage(pages)
      if (!conv) return reply.status(404).send({ error: 'no conversation could take a message' })
      if (text) conv.extra[conv.extra.length - 1]!.text = text
    }
    const msg = conv.extra[conv.extra.length - 1]!
    if (text) conv.snippet = text
    ctx.webhooks.customerMessage(conv.pageId, conv.customer.id, msg)
    return {
      page_id: conv.pageId,
      customer_id: conv.customer.id,
      customer_name: conv.customer.name,
      conversation_id: conv.id,
      mid: msg.id,
      text: msg.text,
    }
  })

  /**
   * A label set or taken off in the Page Inbox: `label` (a name; created on the page when it has none of
   * that name) on `customer_id` of `page_id`, or off with `remove: true`. Answers the label's id.
   */
  app.post('/labels', async (request, reply) => {
    const body = (request.body ?? {}) as {
      page_id?: unknown
      customer_id?: unknown
      label?: unknown
      remove?: unknown
    }
    const pageId = typeof body.page_id === 'string' ? body.page_id : ''
    const customerId = typeof body.customer_id === 'string' ? body.customer_id : ''
    const name = typeof body.label === 'string' ? body.label.trim().slice(0, 100) : ''
    if (!ctx.store.pages.has(pageId) || !name)
      return reply.status(400).send({ error: 'page_id (a demo page) and label are required' })
    if (customerId && !ctx.store.conversationWith(pageId, customerId))
      return reply.status(400).send({ error: 'customer_id is not a customer of the page' })
    const label = ctx.store.labels.named(pageId, name) ?? ctx.store.labels.create(pageId, name)
    if (customerId) {
      if (body.remove === true) label.users.delete(customerId)
      else label.users.add(customerId)
    }
    return { id: label.id, name: label.name, users: [...label.users] }
  })

  app.post('/token', async (request, reply) => {
    const body = (request.body ?? {}) as {
      user?: unknown
      scopes?: unknown
      declined?: unknown
      app_id?: unknown
    }
    const user = body.user === undefined ? 'demo' : body.user
    if (!isUserKey(user))
      return reply
        .status(400)
        .send({ error: `user must be one of ${USER_KEYS.map((k) => `"${k}"`).join(', ')}` })
    const scopes = Array.isArray(body.scopes)
      ? body.scopes.filter((s): s is string => typeof s === 'string')
      : [...REQUIRED_PERMISSIONS]
    const declined = Array.isArray(body.declined)
      ? body.declined.filter((s): s is string => typeof s === 'string')
      : []
    // `app_id`: a token the network gave another app (debug_token reports that app).
    const appId = typeof body.app_id === 'string' && body.app_id ? body.app_id : undefined
    const access_token = ctx.tokens.issueUser(user, scopes, declined, false, appId)
    return { access_token, user_id: ctx.store.users[user].id }
  })

  app.post('/tokens/expire', async (request) => {
    const body = (request.body ?? {}) as { token?: unknown; page_id?: unknown; revoke?: unknown }
    const pageId = typeof body.page_id === 'string' ? body.page_id : undefined
    const token = typeof body.token === 'string' ? body.token : undefined
    // revoke: the user lost their role on the page. Its page tokens are refused with the network's error for
    // a lost role (debug_token answers them invalid), and the accounts list shows the page without a token
    // until {"revoke":false} gives the role back (new tokens then); /reset restores the demo pages.
    const page = pageId === undefined ? undefined : ctx.store.pages.get(pageId)
    if (pageId !== undefined && body.revoke === true) {
      const revoked = ctx.tokens.revokeRole(pageId) + ctx.tokens.expire({ token })
      if (page) page.hasToken = false
      return { expired: revoked }
    }
    const expired = ctx.tokens.expire({ token, page_id: pageId })
    if (page && body.revoke === false) page.hasToken = true
    return { expired }
  })
}

/**
 * Control and inspection endpoints of marketing messages for tests and demos (under /sandbox):
 * - `POST /optin` `{page_id, psid, action: 'optin'|'stop'|'resume', title?, force?}`: the customer taps the
 *   opt-in request (or stops, or resumes marketing messages); updates the tokens and sends the signed
 *   `messaging_optins` webhook. An opt-in needs a delivered request with that title unless `force`.
 * - `GET /marketing/spend?page_id=`, `GET /marketing/sends?page_id=`, `GET /marketing/subscribers?page_id=`
 * - `POST /marketing/campaigns/:id` `{status: 'PAUSED'|'ACTIVE'}`
 */
import type { FastifyInstance } from 'fastify'
import type { SandboxContext } from '../context.ts'
import { DEMO_OPTIN_TITLE, priceOf, TOKEN_LIFE_MS, type SubscriptionToken } from './state.ts'

export function registerMarketingControl(app: FastifyInstance, ctx: SandboxContext): void {
  const mk = () => ctx.marketing

  app.post('/optin', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    const pageId = typeof body.page_id === 'string' ? body.page_id : ''
    const psid = typeof body.psid === 'string' ? body.psid : ''
    const action = body.action ?? 'optin'
    if (action !== 'optin' && action !== 'stop' && action !== 'resume')
      return reply.status(400).send({ error: 'action must be "optin", "stop" or "resume"' })
    if (!ctx.store.pages.has(pageId)) return reply.status(404).send({ error: 'no such page' })
    if (!ctx.store.conversationWith(pageId, psid))
      return reply.status(404).send({ error: 'no conversation with that customer on that page' })
    const title = typeof body.title === 'string' && body.title.trim() ? body.title.trim() : undefined
    const now = Date.now()
    const held = mk().tokensOf(pageId, psid)

    let token: SubscriptionToken
    let status: 'STOP_NOTIFICATIONS' | 'RESUME_NOTIFICATIONS' | undefined
    if (action === 'optin') {
      const request_ = mk().lastRequest(pageId, psid, title)
      if (!request_ && body.force !== true)
        return reply.status(409).send({
          error:
            'no opt-in request with that title was delivered to that customer (pass force: true to skip)',
        })
      const t = title ?? request_?.title ?? DEMO_OPTIN_TITLE
      const same = held.find((h) => h.title === t)
      if (same && mk().isLive(same, now))
        return reply.status(409).send({ error: 'that customer is already subscribed with that title' })
      token = {
        token: mk().newToken(),
        pageId,
        psid,
        title: t,
        payload: request_?.payload ?? 'sandbox-optin',
        status: 'active',
        createdMs: now,
        expiryMs: now + TOKEN_LIFE_MS,
        timezone: request_?.timezone ?? 'UTC',
        ...(request_?.frequency ? { frequency: request_.frequency } : {}),
        changedMs: now,
      }
      // A person opted in again under a title: the old token of that title is replaced.
      mk().tokens = mk().tokens.filter((h) => h !== same)
      mk().tokens.push(token)
    } else {
      const wanted = action === 'stop' ? 'active' : 'stopped'
      const affected = held.filter((h) => h.status === wanted && (!title || h.title === title))
      if (!affected.length)
        return reply.status(409).send({
          error:
            action === 'stop' ? 'that customer has no active subscription' : 'that customer stopped none',
        })
      for (const h of affected) {
        h.status = action === 'stop' ? 'stopped' : 'active'
        h.changedMs = now
      }
      token = affected.reduce((a, b) => (b.createdMs > a.createdMs ? b : a))
      status = action === 'stop' ? 'STOP_NOTIFICATIONS' : 'RESUME_NOTIFICATIONS'
    }
    ctx.webhooks.optin(pageId, psid, now, {
      type: 'notification_messages',
      payload: token.payload,
      notification_messages_token: token.token,
      ...(token.frequency ? { notification_messages_frequency: token.frequency } : {}),
      notification_messages_timezone: token.timezone,
      token_expiry_timestamp: token.expiryMs,
      user_token_status: status ? 'REFRESHED' : 'NOT_REFRESHED',
      ...(status ? { notification_messages_status: status } : {}),
      title: token.title,
    })
    return {
      page_id: pageId,
      psid,
      status: token.status,
      notification_messages_token: token.token,
      title: token.title,
      ...(status ? { notification_messages_status: status } : {}),
    }
  })

  app.get('/marketing/spend', async (request) => {
    const pageId = (request.query as { page_id?: string }).page_id
    const campaigns = [...mk().campaigns.values()]
      .filter((c) => !pageId || c.pageId === pageId)
      .map((c) => {
        const currency = mk().adAccounts.get(c.adAccountId)!.currency
        return {
          id: c.id,
          name: c.name,
          page_id: c.pageId,
          ad_account_id: c.adAccountId,
          status: c.status,
          budget_kind: c.budgetKind === 'daily' ? 'daily' : 'total',
          budget_minor: c.budgetMinor,
          spend_minor: mk().spendOf(c.id),
          sent: mk().sentOf(c.id),
          currency,
          price_minor: priceOf(currency),
        }
      })
    return { campaigns, total_spend_minor: campaigns.reduce((sum, c) => sum + c.spend_minor, 0) }
  })

  app.get('/marketing/sends', async (request) => {
    const pageId = (request.query as { page_id?: string }).page_id
    return {
      data: mk()
        .sends.filter((s) => !pageId || s.page_id === pageId)
        .map(({ atMs: _atMs, token: _token, ...s }) => s),
    }
  })

  /** Every token of a page's customers with its status (tests; the network never lists stopped ones). */
  app.get('/marketing/subscribers', async (request) => {
    const pageId = (request.query as { page_id?: string }).page_id
    const now = Date.now()
    return {
      data: mk()
        .tokens.filter((t) => !pageId || t.pageId === pageId)
        .map((t) => ({
          page_id: t.pageId,
          psid: t.psid,
          title: t.title,
          token: t.token,
          status: t.status === 'active' && !mk().isLive(t, now) ? 'expired' : t.status,
          created_at: new Date(t.createdMs).toISOString(),
          expires_at: new Date(t.expiryMs).toISOString(),
        })),
    }
  })

  app.post('/marketing/campaigns/:id', async (request, reply) => {
    const { id } = request.params as { id: string }
    const status = ((request.body ?? {}) as { status?: unknown }).status
    const campaign = mk().campaigns.get(id)
    if (!campaign) return reply.status(404).send({ error: 'no such campaign' })
    if (status !== 'PAUSED' && status !== 'ACTIVE')
      return reply.status(400).send({ error: 'status must be "PAUSED" or "ACTIVE"' })
    campaign.status = status
    return { id, status }
  })
}

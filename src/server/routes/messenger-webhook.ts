/**
 * The network's Messenger webhooks, at `/webhooks/messenger` (the callback URL configured in the app's
 * Messenger settings): `GET` answers the subscription handshake, `POST` takes signed event bodies. A body is
 * checked over its raw bytes, stored (with those that arrive meanwhile), answered 200 at once, and processed
 * after (webhooks/process.ts).
 * Also the deauthorize callback (`/webhooks/deauthorize`, Facebook Login's settings): the user removed the app,
 * so none of their page tokens works any more and every page binding of theirs is revoked at once.
 */
import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../context.ts'
import { accountBindings, revokeBinding } from '../repo/page-bindings.ts'
import { SIGNATURE_HEADER, checkSignature, parseSignedRequest } from '../webhooks/payload.ts'
import { webhookWriter } from '../repo/webhook-events.ts'
import type { WebhookProcessor } from '../webhooks/process.ts'

export async function messengerWebhookRoutes(
  app: FastifyInstance,
  ctx: ApiContext,
  processor: WebhookProcessor,
): Promise<void> {
  // Bodies that arrive together are stored in one statement.
  const storeWebhook = webhookWriter(ctx.store)
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  app.get('/webhooks/messenger', async (request, reply) => {
    const q = (request.query ?? {}) as Record<string, unknown>
    const challenge = q['hub.challenge']
    if (
      q['hub.mode'] === 'subscribe' &&
      q['hub.verify_token'] === ctx.config.WEBHOOK_VERIFY_TOKEN &&
      typeof challenge === 'string' &&
      challenge.length > 0 &&
      challenge.length <= 200
    ) {
      return reply.code(200).type('text/plain; charset=utf-8').send(challenge)
    }
    request.log.warn({ mode: q['hub.mode'] }, 'messenger webhook handshake refused')
    return reply.code(403).type('text/plain; charset=utf-8').send('Forbidden')
  })

  app.post('/webhooks/messenger', async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
    const header = request.headers[SIGNATURE_HEADER]
    const check = checkSignature(
      ctx.config.FB_APP_SECRET,
      raw,
      typeof header === 'string' ? header : undefined,
    )
    if (!check.ok) {
      // Never the body: it is unauthenticated and may carry anything.
      request.log.warn({ reason: check.reason, bytes: raw.length }, 'messenger webhook refused: signature')
      return reply.code(403).send({ message: 'The webhook signature is missing or wrong.' })
    }
    try {
      JSON.parse(raw.toString('utf8'))
    } catch {
      return reply.code(400).send({ message: 'The request body is not valid JSON.' })
    }
    const fresh = await storeWebhook(raw)
    if (!fresh) request.log.info('messenger webhook: the same body again, acknowledged')
    setImmediate(() => {
      processor
        .drain()
        .catch((err: unknown) => request.log.error({ err }, 'messenger webhook processing failed'))
    })
    return reply.code(200).type('text/plain; charset=utf-8').send('EVENT_RECEIVED')
  })

  app.post('/webhooks/deauthorize', async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : ''
    const signed = new URLSearchParams(raw).get('signed_request') ?? ''
    const parsed = parseSignedRequest(ctx.config.FB_APP_SECRET, signed)
    if (!parsed) {
      request.log.warn({ bytes: raw.length }, 'deauthorize callback refused: signature')
      return reply.code(403).send({ message: 'The signed request is missing or wrong.' })
    }
    const bindings = await accountBindings(ctx.store, parsed.userId)
    for (const b of bindings) {
      const jobs = await revokeBinding(ctx.store, b.user_id, b.page_id, 'app_removed')
      for (const id of jobs ?? []) await ctx.jobs?.kick(id).catch(() => undefined)
    }
    request.log.info({ pages: bindings.length }, 'deauthorize callback: page bindings revoked')
    return reply.code(200).send({ ok: true })
  })
}

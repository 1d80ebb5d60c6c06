/**
 * `POST /api/v2/payments/webhook`: Stripe-format events from the provider (or the sandbox's checkout page).
 * The signature is checked over the raw bytes, so this route parses its own body.
 */
import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../context.ts'
import { HttpError, parse } from '../http/errors.ts'
import { handleEvent, paymentEvent } from '../payments/fulfil.ts'
import { verifySignature } from '../payments/signature.ts'

export async function webhookRoutes(app: FastifyInstance, ctx: ApiContext): Promise<void> {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  app.post('/payments/webhook', async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
    const header = request.headers['stripe-signature']
    const check = verifySignature(
      ctx.payments.webhookSecret,
      raw,
      typeof header === 'string' ? header : undefined,
    )
    if (!check.ok) throw new HttpError(400, check.reason)
    let json: unknown
    try {
      json = JSON.parse(raw.toString('utf8'))
    } catch {
      throw new HttpError(422, 'The request body is not valid JSON.', {
        body: ['The request body is not valid JSON.'],
      })
    }
    const event = parse(paymentEvent, json)
    const outcome = await handleEvent(ctx.store, event)
    request.log.info({ eventId: event.id, type: event.type, outcome }, 'payment event')
    return { received: true, outcome }
  })
}

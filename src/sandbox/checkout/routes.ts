/**
 * The sandbox payment provider's checkout page. "Pay" posts a Stripe-format `checkout.session.completed`
 * event, signed like Stripe signs webhooks, to the configured webhook URL, then returns to success_url.
 */
import { createHmac, randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { SandboxContext } from '../context.ts'
import { absoluteBase } from '../context.ts'
import { escapeHtml, sendHtml } from '../html.ts'

type Q = Record<string, string | undefined>

/** The text fields of a query or a form (or JSON) body; anything else (a repeated field) counts as absent. */
const textFields = (body: unknown): Q =>
  body && typeof body === 'object'
    ? Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === 'string'))
    : {}

/**
 * Only the product's own pages may be returned to: a URL on `publicUrl`'s origin, or a path there (read as a
 * browser reads it, so `//host` and `/\\host` name another site and are refused).
 */
export function safeReturnUrl(raw: string | undefined, publicUrl: string): string | undefined {
  if (!raw) return undefined
  try {
    const own = new URL(publicUrl).origin
    const u = new URL(raw, own)
    return u.origin === own ? u.toString() : undefined
  } catch {
    return undefined
  }
}

export function stripeSignature(secret: string, rawBody: string, t = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex')
  return `t=${t},v1=${v1}`
}

export function registerCheckout(app: FastifyInstance, ctx: SandboxContext, prefix: string): void {
  const css = `${prefix}/sandbox.css`
  const returnUrl = (raw: string | undefined) => safeReturnUrl(raw, ctx.options.publicUrl)

  app.get('/checkout', async (request, reply) => {
    const q = textFields(request.query)
    const success = returnUrl(q.success_url)
    const cancel = returnUrl(q.cancel_url)
    const amount = Number(q.amount)
    if (!q.session || !success || !cancel || !Number.isFinite(amount) || amount < 0) {
      return sendHtml(reply, 'Checkout', '<main><h1>Invalid checkout link</h1></main>', { css, status: 400 })
    }
    const hidden = (name: string, value: string) =>
      `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`
    const body = `<main>
<h1>Checkout</h1>
<p id="product">${escapeHtml(q.product ?? '')}</p>
<p class="amount" id="amount">$${amount.toFixed(2)} USD</p>
${q.interval ? `<p id="interval">Billed ${q.interval === 'year' ? 'yearly' : q.interval === 'month' ? 'monthly' : escapeHtml(q.interval)}</p>` : ''}
${q.discount ? `<p id="discount">Discount: ${escapeHtml(q.discount)}</p>` : ''}
<form method="post" action="${prefix}/checkout/pay">
${hidden('session', q.session)}${hidden('product', q.product ?? '')}${hidden('amount', String(amount))}${hidden('success_url', success)}${hidden('cancel_url', cancel)}
<div class="actions"><button type="submit" id="cancel" formmethod="get" formaction="${prefix}/checkout/cancel">Cancel</button><button type="submit" class="primary" id="pay">Pay</button></div>
</form>
<p class="note">Sandbox payment: no card is charged.</p>
</main>`
    return sendHtml(reply, 'Checkout', body, { css })
  })

  app.post('/checkout/pay', async (request, reply) => {
    const b = textFields(request.body)
    const success = returnUrl(b.success_url)
    if (!b.session || !success)
      return sendHtml(reply, 'Checkout', '<main><h1>Invalid payment</h1></main>', { css, status: 400 })
    const { paymentWebhookUrl, paymentWebhookSecret } = ctx.options
    if (paymentWebhookUrl) {
      const event = {
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        type: 'checkout.session.completed',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: {
          object: {
            id: b.session,
            object: 'checkout.session',
            status: 'complete',
            payment_status: 'paid',
            currency: 'usd',
            amount_total: Math.round(Number(b.amount ?? 0) * 100),
            metadata: { product: b.product ?? '' },
          },
        },
      }
      const raw = JSON.stringify(event)
      const url = new URL(paymentWebhookUrl, absoluteBase(request)).toString()
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripeSignature(paymentWebhookSecret ?? '', raw),
        },
        body: raw,
      }).catch(() => undefined)
      if (!res?.ok) {
        return sendHtml(
          reply,
          'Checkout',
          '<main><h1>The payment could not be confirmed</h1><p>Please try again.</p></main>',
          { css, status: 502 },
        )
      }
    }
    return reply.redirect(success, 303)
  })

  app.get('/checkout/cancel', async (request, reply) => {
    const cancel = returnUrl(textFields(request.query).cancel_url)
    if (!cancel)
      return sendHtml(reply, 'Checkout', '<main><h1>Invalid checkout link</h1></main>', { css, status: 400 })
    return reply.redirect(cancel, 303)
  })
}

/**
 * Stripe Checkout through its REST API (form-encoded, no SDK). Prices are sent inline from the one plan
 * table in `src/core/constants/plans.ts`, so the dashboard holds only the referral coupon.
 */
import type { PaymentProvider } from './provider.ts'

const STRIPE_API = 'https://api.stripe.com/v1'

export interface StripeOptions {
  secretKey: string
  webhookSecret: string
  referralCoupon: string
  fetch?: typeof fetch
}

export class StripeError extends Error {}

export function stripeProvider(opts: StripeOptions): PaymentProvider {
  const doFetch = opts.fetch ?? fetch
  async function call(path: string, form: Record<string, string>): Promise<Record<string, unknown>> {
    const res = await doFetch(`${STRIPE_API}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${opts.secretKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(15_000),
    })
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown> & {
      error?: { message?: string }
    }
    if (!res.ok) throw new StripeError(body.error?.message ?? `Stripe answered ${res.status}`)
    return body
  }

  return {
    name: 'stripe',
    webhookSecret: opts.webhookSecret,
    async createCheckout(req) {
      const form: Record<string, string> = {
        mode: req.kind === 'plan' ? 'subscription' : 'payment',
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        client_reference_id: req.sessionId,
        'metadata[session_id]': req.sessionId,
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': String(Math.round(req.amount * 100)),
        'line_items[0][price_data][product_data][name]': req.productName,
      }
      if (req.interval) form['line_items[0][price_data][recurring][interval]'] = req.interval
      if (req.customerEmail) form.customer_email = req.customerEmail
      if (req.discountPercent > 0) form['discounts[0][coupon]'] = opts.referralCoupon
      const session = await call('/checkout/sessions', form)
      if (typeof session.url !== 'string') throw new StripeError('Stripe answered without a checkout url')
      return { url: session.url, providerSessionId: typeof session.id === 'string' ? session.id : undefined }
    },
    async cancelAtPeriodEnd(providerSubscriptionId) {
      if (!providerSubscriptionId) return
      await call(`/subscriptions/${encodeURIComponent(providerSubscriptionId)}`, {
        cancel_at_period_end: 'true',
      })
    },
  }
}

/** Payments against the sandbox's checkout page, which pays or cancels and signs a Stripe-format event. */
import type { PaymentProvider } from './provider.ts'

export function sandboxProvider(publicUrl: string, webhookSecret: string): PaymentProvider {
  return {
    name: 'sandbox',
    webhookSecret,
    async createCheckout(req) {
      const amount = Math.round(req.amount * (100 - req.discountPercent)) / 100
      const params = new URLSearchParams({
        session: req.sessionId,
        product: req.productName,
        amount: amount.toFixed(2),
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
      })
      if (req.interval) params.set('interval', req.interval)
      if (req.discountPercent > 0)
        params.set('discount', `${req.discountPercent}% for ${req.discountMonths} months`)
      return { url: `${publicUrl}/sandbox/checkout?${params}`, providerSessionId: req.sessionId }
    },
    async cancelAtPeriodEnd() {},
  }
}

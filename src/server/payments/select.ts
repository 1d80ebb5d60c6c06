/** Chooses the payment provider from the config (`PAYMENT_PROVIDER`). */
import type { ServerConfig } from '../config.ts'
import type { PaymentProvider } from './provider.ts'
import { sandboxProvider } from './sandbox-provider.ts'
import { stripeProvider } from './stripe-provider.ts'

export function paymentProvider(
  config: ServerConfig,
  sandboxSecret?: string,
  fetchImpl?: typeof fetch,
): PaymentProvider {
  if (config.PAYMENT_PROVIDER === 'stripe') {
    // loadConfig guarantees both are set with PAYMENT_PROVIDER=stripe.
    return stripeProvider({
      secretKey: config.STRIPE_SECRET_KEY!,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
      referralCoupon: config.STRIPE_REFERRAL_COUPON,
      fetch: fetchImpl,
    })
  }
  return sandboxProvider(config.publicUrl, sandboxSecret ?? config.SANDBOX_WEBHOOK_SECRET)
}

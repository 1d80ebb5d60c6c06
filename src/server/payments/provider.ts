/**
 * Payment providers behind one interface. The sandbox provider sends the user to the sandbox's checkout page;
 * the Stripe provider to a Stripe Checkout session. Both report payment with the same Stripe-format,
 * signed webhook event, handled once in `fulfil.ts`.
 */
export interface CheckoutRequest {
  /** Our id of the checkout; the provider echoes it back in the completed event. */
  sessionId: string
  kind: 'plan' | 'addon'
  priceId: string
  productName: string
  /** USD, before any discount. */
  amount: number
  interval?: 'month' | 'year' | undefined
  discountPercent: number
  discountMonths: number
  successUrl: string
  cancelUrl: string
  customerEmail?: string | null | undefined
}

export interface CheckoutResult {
  url: string
  /** The provider's own id of the session, when it has one. */
  providerSessionId?: string | undefined
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe'
  /** Secret the provider signs webhook events with. */
  readonly webhookSecret: string
  createCheckout(req: CheckoutRequest): Promise<CheckoutResult>
  /** Stops renewal at the end of the current period. */
  cancelAtPeriodEnd(providerSubscriptionId: string | null): Promise<void>
}

/**
 * Handling a provider event, exactly once: the event id is recorded in the same transaction as its effect,
 * and a checkout session moves from open to completed only once, so a redelivered event or a second event
 * for the same session changes nothing.
 */
import { z } from 'zod'
import { findPrice } from '../../core/constants/plans.ts'
import type { Queryable, Store } from '../db/store.ts'
import { completeCheckoutSession } from '../repo/checkout-sessions.ts'
import { onceForPaymentEvent } from '../repo/payment-events.ts'
import { recordReferralUse } from '../repo/referrals.ts'
import {
  addAddonMessages,
  endProviderSubscription,
  renewPlan,
  startPaidPlan,
  subscriptionOfProvider,
} from '../repo/subscriptions.ts'

export const paymentEvent = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
})
export type PaymentEvent = z.infer<typeof paymentEvent>

export type EventOutcome = 'processed' | 'duplicate' | 'ignored'

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined)

async function completeCheckout(tx: Queryable, object: Record<string, unknown>): Promise<EventOutcome> {
  const metadata = (object.metadata ?? {}) as Record<string, unknown>
  const ourId = str(object.client_reference_id) ?? str(metadata.session_id) ?? str(object.id)
  const providerId = str(object.id) ?? ''
  if (!ourId) return 'ignored'
  if (object.payment_status === 'unpaid') return 'ignored'
  const session = await completeCheckoutSession(tx, ourId, providerId)
  if (!session) return 'ignored'
  // The customer's referral discount is used up by this purchase.
  if (session.referral) await recordReferralUse(tx, session.user_id, session.referral, session.id)
  const match = findPrice(session.price_id)
  if (!match) return 'ignored'
  if (match.kind === 'addon') {
    // Buying a messages package also lifts a fair-use block.
    await addAddonMessages(tx, session.user_id, match.addon.messages)
    return 'processed'
  }
  await startPaidPlan(tx, session.user_id, {
    product: match.plan.title,
    priceId: session.price_id,
    amount: session.amount,
    interval: match.interval,
    messages: match.plan.messages,
    providerSubscriptionId: str(object.subscription) ?? null,
  })
  return 'processed'
}

/** A paid renewal refills the plan's messages for the new period. */
async function renew(tx: Queryable, object: Record<string, unknown>): Promise<EventOutcome> {
  const subscriptionId = str(object.subscription)
  if (!subscriptionId || object.billing_reason !== 'subscription_cycle') return 'ignored'
  const row = await subscriptionOfProvider(tx, subscriptionId)
  const match = row?.price_id ? findPrice(row.price_id) : undefined
  if (!row || match?.kind !== 'plan') return 'ignored'
  await renewPlan(tx, row.user_id, match.plan.messages, match.interval)
  return 'processed'
}

export async function handleEvent(store: Store, event: PaymentEvent): Promise<EventOutcome> {
  return onceForPaymentEvent(store, event, async (tx): Promise<EventOutcome> => {
    const object = event.data.object
    switch (event.type) {
      case 'checkout.session.completed':
        return completeCheckout(tx, object)
      case 'invoice.paid':
        return renew(tx, object)
      case 'customer.subscription.deleted': {
        const id = str(object.id)
        if (!id) return 'ignored'
        await endProviderSubscription(tx, id)
        return 'processed'
      }
      default:
        return 'ignored'
    }
  })
}

/**
 * Handling a provider event, exactly once: the event id is recorded in the same transaction as its effect,
 * and a checkout session moves from open to completed only once, so a redelivered event or a second event
 * for the same session changes nothing.
 */
import { z } from 'zod'
import { findPrice } from '../../shared/constants/plans.ts'
import type { Queryable, Store } from '../db/store.ts'
import { recordReferralUse } from '../repo/referrals.ts'

export const paymentEvent = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
})
export type PaymentEvent = z.infer<typeof paymentEvent>

export type EventOutcome = 'processed' | 'duplicate' | 'ignored'

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined)

interface SessionRow {
  id: string
  user_id: number
  price_id: string
  amount: number
  referral: string | null
}

async function completeCheckout(tx: Queryable, object: Record<string, unknown>): Promise<EventOutcome> {
  const metadata = (object.metadata ?? {}) as Record<string, unknown>
  const ourId = str(object.client_reference_id) ?? str(metadata.session_id) ?? str(object.id)
  const providerId = str(object.id) ?? ''
  if (!ourId) return 'ignored'
  if (object.payment_status === 'unpaid') return 'ignored'
  const session = (
    await tx.query<SessionRow>(
      `UPDATE checkout_sessions SET status = 'completed', completed_at = now()
       WHERE (id = $1 OR provider_session_id = $2) AND status = 'open'
       RETURNING id, user_id, price_id, amount, referral`,
      [ourId, providerId],
    )
  )[0]
  if (!session) return 'ignored'
  // The customer's referral discount is used up by this purchase.
  if (session.referral) await recordReferralUse(tx, session.user_id, session.referral, session.id)
  const match = findPrice(session.price_id)
  if (!match) return 'ignored'
  if (match.kind === 'addon') {
    // Buying a messages package also lifts a fair-use block.
    await tx.query(
      'UPDATE subscriptions SET addons_messages = addons_messages + $2, unlimited_blocked = false WHERE user_id = $1',
      [session.user_id, match.addon.messages],
    )
    return 'processed'
  }
  await tx.query(
    `UPDATE subscriptions SET access = true, access_type = 'paid', product = $2, price_id = $3, amount = $4,
       billing_interval = $5, subscriptions_messages = $6,
       current_period_end = now() + CASE WHEN $5 = 'year' THEN interval '1 year' ELSE interval '1 month' END,
       cancel_at_period_end = false, cancellation_reason = NULL, unlimited_sent = 0,
       provider_subscription_id = COALESCE($7, provider_subscription_id)
     WHERE user_id = $1`,
    [
      session.user_id,
      match.plan.title,
      session.price_id,
      session.amount,
      match.interval,
      match.plan.messages,
      str(object.subscription) ?? null,
    ],
  )
  return 'processed'
}

/** A paid renewal refills the plan's messages for the new period. */
async function renew(tx: Queryable, object: Record<string, unknown>): Promise<EventOutcome> {
  const subscriptionId = str(object.subscription)
  if (!subscriptionId || object.billing_reason !== 'subscription_cycle') return 'ignored'
  const row = (
    await tx.query<{ user_id: number; price_id: string | null }>(
      'SELECT user_id, price_id FROM subscriptions WHERE provider_subscription_id = $1',
      [subscriptionId],
    )
  )[0]
  const match = row?.price_id ? findPrice(row.price_id) : undefined
  if (!row || match?.kind !== 'plan') return 'ignored'
  await tx.query(
    `UPDATE subscriptions SET subscriptions_messages = $2, unlimited_sent = 0, access = true,
       current_period_end = GREATEST(COALESCE(current_period_end, now()), now())
         + CASE WHEN $3 = 'year' THEN interval '1 year' ELSE interval '1 month' END
     WHERE user_id = $1`,
    [row.user_id, match.plan.messages, match.interval],
  )
  return 'processed'
}

export async function handleEvent(store: Store, event: PaymentEvent): Promise<EventOutcome> {
  return store.transaction(async (tx) => {
    const fresh = await tx.query(
      'INSERT INTO payment_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
      [event.id, event.type],
    )
    if (fresh.length === 0) return 'duplicate'
    const object = event.data.object
    switch (event.type) {
      case 'checkout.session.completed':
        return completeCheckout(tx, object)
      case 'invoice.paid':
        return renew(tx, object)
      case 'customer.subscription.deleted': {
        const id = str(object.id)
        if (!id) return 'ignored'
        await tx.query('UPDATE subscriptions SET access = false WHERE provider_subscription_id = $1', [id])
        return 'processed'
      }
      default:
        return 'ignored'
    }
  })
}

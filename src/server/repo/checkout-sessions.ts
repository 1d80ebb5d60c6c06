/** The `checkout_sessions` table: each checkout started with the payment provider, open until it is paid. */
import type { Queryable } from '../db/store.ts'

export interface NewCheckoutSession {
  id: string
  userId: string
  provider: string
  priceId: string
  kind: 'plan' | 'addon'
  amount: number
  discountPercent: number
  referral: string | null
}

/** A checkout session as its completion answers it. */
export interface CompletedCheckoutRow {
  id: string
  user_id: number
  price_id: string
  amount: number
  referral: string | null
}

export async function createCheckoutSession(db: Queryable, session: NewCheckoutSession): Promise<void> {
  await db.query(
    `INSERT INTO checkout_sessions (id, user_id, provider, price_id, kind, amount, discount_percent, referral)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      session.id,
      session.userId,
      session.provider,
      session.priceId,
      session.kind,
      session.amount,
      session.discountPercent,
      session.referral,
    ],
  )
}

/** Keeps the provider's id of the checkout session, by which its payment event may name it. */
export async function setProviderSessionId(
  db: Queryable,
  id: string,
  providerSessionId: string,
): Promise<void> {
  await db.query('UPDATE checkout_sessions SET provider_session_id = $2 WHERE id = $1', [
    id,
    providerSessionId,
  ])
}

/**
 * Moves the open checkout session of our id or the provider's to completed; undefined when there is none
 * open (unknown, or completed already), so a session completes only once.
 */
export async function completeCheckoutSession(
  db: Queryable,
  id: string,
  providerSessionId: string,
): Promise<CompletedCheckoutRow | undefined> {
  const [row] = await db.query<CompletedCheckoutRow>(
    `UPDATE checkout_sessions SET status = 'completed', completed_at = now()
     WHERE (id = $1 OR provider_session_id = $2) AND status = 'open'
     RETURNING id, user_id, price_id, amount, referral`,
    [id, providerSessionId],
  )
  return row
}

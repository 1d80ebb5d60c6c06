/** The `payment_events` table: the ids of the payment provider's events already handled. */
import type { Queryable, Store } from '../db/store.ts'

/**
 * Runs `apply` for a provider event once: the event id is recorded in the same transaction as its effect, so
 * a redelivered event answers 'duplicate' and changes nothing. A thrown error rolls both back.
 */
export async function onceForPaymentEvent<T>(
  store: Store,
  event: { id: string; type: string },
  apply: (tx: Queryable) => Promise<T>,
): Promise<T | 'duplicate'> {
  return store.transaction(async (tx) => {
    const fresh = await tx.query(
      'INSERT INTO payment_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
      [event.id, event.type],
    )
    if (fresh.length === 0) return 'duplicate'
    return apply(tx)
  })
}

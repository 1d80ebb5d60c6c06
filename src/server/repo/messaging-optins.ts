/** The `messaging_optins` table: every opt-in event the webhooks delivered, kept as the network sent it. */
import type { Queryable } from '../db/store.ts'

export interface MessagingOptinInput {
  pageId: string
  customerId: string | null
  userRef: string | null
  type: string | null
  payload: string | null
  token: string | null
  /** The event's `optin` object as received. */
  optin: Record<string, unknown>
  eventTime: string
}

/** Stores the opt-in event (a duplicate is ignored). */
export async function recordMessagingOptin(db: Queryable, o: MessagingOptinInput): Promise<void> {
  await db.query(
    `INSERT INTO messaging_optins (page_id, customer_id, user_ref, type, payload, notification_messages_token, optin, event_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8) ON CONFLICT DO NOTHING`,
    [o.pageId, o.customerId, o.userRef, o.type, o.payload, o.token, JSON.stringify(o.optin), o.eventTime],
  )
}

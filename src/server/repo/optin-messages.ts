/**
 * The opt-in request messages sent (`optin_request_messages`), by the network's message id: what lets every
 * device's chat show such a message as a subscription request with its title. The weekly limit is kept apart
 * (optin_requests, in marketing.ts). Recording the same message again keeps its first title and time.
 */
import type { Queryable } from '../db/store.ts'
import {
  OPTIN_MESSAGES_LIST_MAX,
  type OptinRequestMessage,
  type SentOptinRequest,
} from '../../core/contracts/marketing.ts'

export async function recordOptInMessages(
  db: Queryable,
  pageId: string,
  messages: readonly OptinRequestMessage[],
  title: string,
  at: Date,
): Promise<void> {
  if (messages.length === 0) return
  await db.query(
    `INSERT INTO optin_request_messages (page_id, psid, message_id, title, sent_at)
       SELECT $1, m.psid, m.message_id, $4, $5 FROM unnest($2::text[], $3::text[]) AS m(psid, message_id)
     ON CONFLICT (page_id, message_id) DO NOTHING`,
    [pageId, messages.map((m) => m.psid), messages.map((m) => m.message_id), title, at],
  )
}

/** The customer's opt-in request messages, newest first (at most `limit`). */
export async function listOptInMessages(
  db: Queryable,
  pageId: string,
  psid: string,
  limit = OPTIN_MESSAGES_LIST_MAX,
): Promise<SentOptinRequest[]> {
  const rows = await db.query<{ message_id: string; title: string; sent_at: Date | string }>(
    `SELECT message_id, title, sent_at FROM optin_request_messages
     WHERE page_id = $1 AND psid = $2 ORDER BY sent_at DESC, message_id DESC LIMIT $3`,
    [pageId, psid, limit],
  )
  return rows.map((r) => ({
    message_id: r.message_id,
    title: r.title,
    sent_at: new Date(r.sent_at).toISOString(),
  }))
}

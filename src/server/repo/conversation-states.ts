/**
 * `conversation_states`: who is waiting for an answer, per (page, customer), kept from the Messenger webhooks
 * and the page's people ("done", a chat opened), so every person who manages the page sees the same
 * (docs/architecture.md#who-is-waiting). Each change is published to the page's owners as a
 * `conversation_state` event.
 */
import type { ConversationHistoryItem, ConversationState } from '../../core/contracts/conversation-states.ts'
import type { Queryable, Store } from '../db/store.ts'
import { publishToPage } from './owner-events.ts'

interface Row {
  page_id: string
  customer_id: string
  customer_at: Date | string | null
  customer_text: string | null
  unread: number
  answered_at: Date | string | null
  done_at: Date | string | null
  done_by_name: string | null
  broadcast_at: Date | string | null
  broadcast_text: string | null
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString())

const NEEDS_REPLY = `(s.customer_at IS NOT NULL AND s.customer_at > COALESCE(s.answered_at, '-infinity')
  AND s.customer_at > COALESCE(s.done_at, '-infinity'))`

const SELECT = `SELECT s.page_id, s.customer_id, s.customer_at, s.customer_text, s.unread, s.answered_at, s.done_at,
    u.name AS done_by_name, s.broadcast_at, s.broadcast_text
  FROM conversation_states s LEFT JOIN users u ON u.id = s.done_by`

function toState(r: Row): ConversationState {
  const customerAt = iso(r.customer_at)
  const answeredAt = iso(r.answered_at)
  const doneAt = iso(r.done_at)
  const c = customerAt ? Date.parse(customerAt) : 0
  return {
    pageId: r.page_id,
    customerId: r.customer_id,
    customerAt,
    customerText: r.customer_text,
    unread: Number(r.unread),
    answeredAt,
    doneAt,
    doneBy: r.done_by_name,
    broadcastAt: iso(r.broadcast_at),
    broadcastText: r.broadcast_text,
    needsReply:
      c > 0 && c > (answeredAt ? Date.parse(answeredAt) : 0) && c > (doneAt ? Date.parse(doneAt) : 0),
  }
}

async function readState(db: Queryable, pageId: string, customerId: string) {
  const [row] = await db.query<Row>(`${SELECT} WHERE s.page_id = $1 AND s.customer_id = $2`, [
    pageId,
    customerId,
  ])
  return row ? toState(row) : undefined
}

/** Publishes the conversation's state to the page's owners; answers it. */
async function publish(db: Queryable, pageId: string, customerId: string) {
  const state = await readState(db, pageId, customerId)
  if (state) await publishToPage(db, pageId, 'conversation_state', state)
  return state
}

/** Every known state of the page's conversations. */
export async function pageStates(db: Queryable, pageId: string): Promise<ConversationState[]> {
  const rows = await db.query<Row>(`${SELECT} WHERE s.page_id = $1 ORDER BY s.customer_id`, [pageId])
  return rows.map(toState)
}

/** The customers of the page waiting for an answer, by the server's state. */
export async function waitingCustomers(db: Queryable, pageId: string): Promise<Set<string>> {
  const rows = await db.query<{ customer_id: string }>(
    `SELECT customer_id FROM conversation_states s WHERE page_id = $1 AND ${NEEDS_REPLY}`,
    [pageId],
  )
  return new Set(rows.map((r) => r.customer_id))
}

/** The customers of the page the server has a state of (the others are judged from the network's list). */
export async function knownCustomers(db: Queryable, pageId: string): Promise<Set<string>> {
  const rows = await db.query<{ customer_id: string }>(
    'SELECT customer_id FROM conversation_states WHERE page_id = $1',
    [pageId],
  )
  return new Set(rows.map((r) => r.customer_id))
}

export type PageMessageKind = 'customer' | 'answer' | 'broadcast'

export interface RecordedMessage {
  pageId: string
  customerId: string
  kind: PageMessageKind
  at: string
  text: string | null
  mid: string
}

/**
 * Messages of conversations, as their webhooks told them, in order: the customer's words and one more unread;
 * a person's answer (nothing unread any more); or a broadcast (shown apart, changes neither). An older message
 * arriving late changes nothing of what is newer. Answers the conversation's state after each, unpublished.
 * One statement for all, or one per message of a conversation when it has several: the n-th message of each
 * conversation goes in the n-th, so each state is the one its message left.
 */
export async function recordMessages(
  db: Queryable,
  ms: readonly RecordedMessage[],
): Promise<ConversationState[]> {
  const states: ConversationState[] = []
  const rounds: number[][] = []
  const seen = new Map<string, number>()
  ms.forEach((m, i) => {
    const key = `${m.pageId}\u0000${m.customerId}`
    const round = seen.get(key) ?? 0
    seen.set(key, round + 1)
    ;(rounds[round] ??= []).push(i)
  })
  for (const round of rounds) {
    // In the order of their keys, so instances taking up batches at once lock the rows in the same order.
    const part = round
      .map((i) => ms[i]!)
      .sort((a, b) => compare(a.pageId, b.pageId) || compare(a.customerId, b.customerId))
    const when = (kind: PageMessageKind) => part.map((m) => (m.kind === kind ? m.at : null))
    const rows = await db.query<Row>(
      `WITH d AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[],
           $6::timestamptz[], $7::text[]) AS d(page_id, customer_id, mid, customer_at, answered_at, broadcast_at, text)
       ), up AS (
         INSERT INTO conversation_states AS s (page_id, customer_id, customer_at, customer_text, customer_mid, unread,
             answered_at, broadcast_at, broadcast_text)
           SELECT page_id, customer_id, customer_at,
             CASE WHEN customer_at IS NOT NULL THEN text END, CASE WHEN customer_at IS NOT NULL THEN mid END,
             CASE WHEN customer_at IS NOT NULL THEN 1 ELSE 0 END,
             answered_at, broadcast_at, CASE WHEN broadcast_at IS NOT NULL THEN text END
           FROM d
         ON CONFLICT (page_id, customer_id) DO UPDATE SET
           customer_at = GREATEST(s.customer_at, EXCLUDED.customer_at),
           customer_text = CASE WHEN EXCLUDED.customer_at IS NOT NULL
             AND (s.customer_at IS NULL OR EXCLUDED.customer_at >= s.customer_at)
             THEN EXCLUDED.customer_text ELSE s.customer_text END,
           customer_mid = CASE WHEN EXCLUDED.customer_at IS NOT NULL
             AND (s.customer_at IS NULL OR EXCLUDED.customer_at >= s.customer_at)
             THEN EXCLUDED.customer_mid ELSE s.customer_mid END,
           unread = CASE
             WHEN EXCLUDED.customer_at IS NOT NULL THEN
               CASE WHEN EXCLUDED.customer_at > COALESCE(s.answered_at, '-infinity') THEN s.unread + 1
                 ELSE s.unread END
             WHEN EXCLUDED.answered_at IS NOT NULL THEN
               CASE WHEN EXCLUDED.answered_at >= COALESCE(s.customer_at, '-infinity') THEN 0 ELSE s.unread END
             ELSE s.unread END,
           answered_at = GREATEST(s.answered_at, EXCLUDED.answered_at),
           broadcast_at = GREATEST(s.broadcast_at, EXCLUDED.broadcast_at),
           broadcast_text = CASE WHEN EXCLUDED.broadcast_at IS NOT NULL
             AND (s.broadcast_at IS NULL OR EXCLUDED.broadcast_at >= s.broadcast_at)
             THEN EXCLUDED.broadcast_text ELSE s.broadcast_text END,
           updated_at = now()
         RETURNING s.*
       )
       SELECT s.page_id, s.customer_id, s.customer_at, s.customer_text, s.unread, s.answered_at, s.done_at,
         u.name AS done_by_name, s.broadcast_at, s.broadcast_text
       FROM up s LEFT JOIN users u ON u.id = s.done_by`,
      [
        part.map((m) => m.pageId),
        part.map((m) => m.customerId),
        part.map((m) => m.mid),
        when('customer'),
        when('answer'),
        when('broadcast'),
        part.map((m) => m.text ?? ''),
      ],
    )
    const byKey = new Map(rows.map((r) => [`${r.page_id}\u0000${r.customer_id}`, toState(r)]))
    for (const i of round) states[i] = byKey.get(`${ms[i]!.pageId}\u0000${ms[i]!.customerId}`)!
  }
  return states
}

/**
 * The conversations of the page as the network's list gave them to a person's app (the customer's last message,
 * the network's unread count, the page's last message after it), kept as their state when the server has
 * none: a page connected with years of conversations keeps who is waiting once it broadcasts, though the
 * network then shows the page's message last and nothing unread. A state the webhooks already keep is left as
 * it is, but for one that only knows a broadcast of ours: it learns the customer's last message from the list.
 * The page's last message counts as a person's answer unless one of our sends to the customer could be it.
 * Answers the states of the customers named.
 */
export async function recordHistory(
  store: Store,
  pageId: string,
  items: readonly ConversationHistoryItem[],
): Promise<ConversationState[]> {
  const byCustomer = new Map(items.map((i) => [i.customer_id, i]))
  const list = [...byCustomer.values()].sort((a, b) => compare(a.customer_id, b.customer_id))
  return store.transaction(async (db) => {
    await db.query(
      `WITH d AS (
         SELECT * FROM unnest($2::text[], $3::timestamptz[], $4::text[], $5::int[], $6::timestamptz[])
           AS d(customer_id, customer_at, customer_text, unread, page_at)
       )
       INSERT INTO conversation_states AS s (page_id, customer_id, customer_at, customer_text, unread, answered_at)
         SELECT $1, d.customer_id, d.customer_at,
           CASE WHEN d.page_at IS NULL THEN d.customer_text END,
           CASE WHEN d.page_at IS NULL AND d.customer_at IS NOT NULL THEN d.unread ELSE 0 END,
           CASE WHEN NOT EXISTS (
             SELECT 1 FROM messages m JOIN message_recipients r ON r.message_id = m.id
             WHERE m.page_id = $1 AND r.recipient_id = d.customer_id
               AND r.status = 'OK'
               AND COALESCE(r.touched_at, m.created_at) >= COALESCE(d.customer_at, '-infinity')
           ) THEN d.page_at END
         FROM d ORDER BY d.customer_id
       ON CONFLICT (page_id, customer_id) DO UPDATE SET
         customer_at = EXCLUDED.customer_at,
         customer_text = COALESCE(EXCLUDED.customer_text, s.customer_text),
         unread = GREATEST(s.unread, EXCLUDED.unread),
         updated_at = now()
       WHERE s.customer_at IS NULL AND s.answered_at IS NULL AND s.done_at IS NULL
         AND EXCLUDED.customer_at IS NOT NULL`,
      [
        pageId,
        list.map((i) => i.customer_id),
        list.map((i) => i.customer_at),
        list.map((i) => i.customer_text),
        list.map((i) => i.unread),
        list.map((i) => i.page_at),
      ],
    )
    const rows = await db.query<Row>(`${SELECT} WHERE s.page_id = $1 AND s.customer_id = ANY($2::text[])`, [
      pageId,
      list.map((i) => i.customer_id),
    ])
    return rows.map(toState)
  })
}

/**
 * A person of the page marked the conversation done: it no longer needs a reply until the customer writes.
 * The state and its event are written in one transaction.
 */
export async function markDone(store: Store, pageId: string, customerId: string, userId: string) {
  return store.transaction(async (db) => {
    await db.query(
      `INSERT INTO conversation_states AS s (page_id, customer_id, done_at, done_by) VALUES ($1, $2, now(), $3)
       ON CONFLICT (page_id, customer_id) DO UPDATE SET done_at = now(), done_by = $3, unread = 0,
         done_prev_at = s.done_at, done_prev_by = s.done_by, done_prev_unread = s.unread, updated_at = now()`,
      [pageId, customerId, userId],
    )
    return publish(db, pageId, customerId)
  })
}

/**
 * The person who marked the conversation done takes it back: its earlier done state and unread count return,
 * only while nothing newer happened in it (no message, answer, broadcast or other "done" since: the row is as
 * the mark left it). Answers the restored state, or undefined when it is too late.
 */
export async function undoDone(store: Store, pageId: string, customerId: string, userId: string) {
  return store.transaction(async (db) => {
    const changed = await db.query(
      `UPDATE conversation_states SET done_at = done_prev_at, done_by = done_prev_by, unread = done_prev_unread,
         done_prev_at = NULL, done_prev_by = NULL, done_prev_unread = 0, updated_at = now()
       WHERE page_id = $1 AND customer_id = $2 AND done_by = $3 AND done_at IS NOT NULL AND updated_at = done_at
       RETURNING 1`,
      [pageId, customerId, userId],
    )
    return changed.length > 0 ? publish(db, pageId, customerId) : undefined
  })
}

/**
 * A person of the page opened the chat: nothing in it is unread, for everyone (it may still need a reply).
 * The state and its event are written in one transaction.
 */
export async function markSeen(store: Store, pageId: string, customerId: string) {
  return store.transaction(async (db) => {
    const changed = await db.query(
      `UPDATE conversation_states SET unread = 0, updated_at = now()
         WHERE page_id = $1 AND customer_id = $2 AND unread > 0 RETURNING 1`,
      [pageId, customerId],
    )
    return changed.length > 0 ? publish(db, pageId, customerId) : readState(db, pageId, customerId)
  })
}

/**
 * The `messages` table (stored bulk messages): the one module that reads and writes its rows (the touch's
 * transaction in touch.ts claims a recipient row and calls the counters here; the recipients are in
 * message-recipients.ts). A user reaches only their own rows that are not deleted. Functions return results or throw the domain errors below; the routes map them to HTTP.
 */
import {
  createdKind,
  type CreateMessageBody,
  type MessageStateBody,
  type StoredMessage,
} from '../../shared/contracts/api.ts'
import type { JobKind, JobMarketing } from '../../shared/contracts/marketing.ts'
import type { Queryable, Store } from '../db/store.ts'

/** No such message of this user (never created, another user's, or deleted). */
export class MessageNotFound extends Error {
  constructor() {
    super('Message not found.')
    this.name = 'MessageNotFound'
  }
}

/** The recipients would exceed the `total_messages` the message declared. */
export class RecipientsOverflow extends Error {
  readonly room: number
  readonly total: number
  constructor(room: number, total: number) {
    super(`This message has room for ${room} recipients; ${total} would exceed it.`)
    this.name = 'RecipientsOverflow'
    this.room = room
    this.total = total
  }
}

export async function ownMessage(
  db: Queryable,
  id: string,
  userId: string,
): Promise<{ total_messages: number }> {
  const row = (
    await db.query<{ total_messages: number }>(
      'SELECT total_messages FROM messages WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
      [id, userId],
    )
  )[0]
  if (!row) throw new MessageNotFound()
  return row
}

/** The page of the user's message, even one hidden from the cards; undefined when the user has no such message. */
export async function messagePage(db: Queryable, id: string, userId: string): Promise<string | undefined> {
  const [row] = await db.query<{ page_id: string }>(
    'SELECT page_id FROM messages WHERE id = $1 AND user_id = $2',
    [id, userId],
  )
  return row?.page_id
}

/** The page of the user's message that is not deleted; undefined when the user has no such message. */
export async function liveMessagePage(
  db: Queryable,
  id: string,
  userId: string,
): Promise<string | undefined> {
  const [row] = await db.query<{ page_id: string }>(
    'SELECT page_id FROM messages WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
    [id, userId],
  )
  return row?.page_id
}

/** Creates the record; answers its id. */
export async function createMessage(db: Queryable, userId: string, body: CreateMessageBody): Promise<string> {
  const row = (
    await db.query<{ id: number }>(
      `INSERT INTO messages (user_id, page_id, message_type_id, message, image_url, label, tag, total_messages,
          branded_messages_amount, content_kind, optin_title, kind, audience_labels, name_fallback, utility)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb) RETURNING id`,
      [
        userId,
        body.page_id,
        body.message_type_id,
        body.message,
        body.image_url ?? null,
        body.label,
        body.tag ?? null,
        body.total_messages,
        body.branded_messages_amount,
        body.content_kind ?? 'text',
        body.content_kind === 'optin_request' ? (body.optin_title ?? null) : null,
        createdKind(body),
        body.audience_labels ? JSON.stringify(body.audience_labels) : null,
        body.name_fallback ?? null,
        body.content_kind === 'utility' && body.utility ? JSON.stringify(body.utility) : null,
      ],
    )
  )[0]!
  return String(row.id)
}

interface MessageRow
  extends Omit<StoredMessage, 'id' | 'created_at' | 'scheduled_at' | 'marketing'>, MarketingColumns {
  id: number
  created_at: Date
  scheduled_at: Date | null
}

/** A job's campaign columns as `MARKETING_COLUMNS` reads them (amounts as numbers). */
export interface MarketingColumns {
  budget_kind: 'daily' | 'total' | null
  budget_minor: number | null
  currency: string | null
  estimate_minor: number | null
  spend_minor: number | null
  marketing_sent: number
}

/** The campaign columns of a `messages` row, with how many of its marketing recipients were sent. */
export const MARKETING_COLUMNS = `budget_kind, budget_minor::double precision AS budget_minor, currency,
  estimate_minor::double precision AS estimate_minor, spend_minor::double precision AS spend_minor,
  CASE WHEN campaign_id IS NULL THEN 0 ELSE (SELECT count(*)::int FROM message_recipients mr
    WHERE mr.message_id = messages.id AND mr.way = 'marketing' AND mr.status = 'OK') END AS marketing_sent`

/** The job's marketing part as the card shows it; null for a job without a campaign. */
export function jobMarketingOf(row: MarketingColumns): JobMarketing | null {
  if (!row.budget_kind || row.budget_minor === null || !row.currency) return null
  return {
    sent: row.marketing_sent,
    currency: row.currency,
    budget_kind: row.budget_kind,
    budget_minor: row.budget_minor,
    estimate_minor: row.estimate_minor ?? 0,
    spend_minor: row.spend_minor,
  }
}

const COLUMNS = `id, page_id, message, image_url, tag, label, total_messages, branded_messages_amount, ok_count,
  ng_count, skipped_count, delivered_count, read_count, state, stop_reason, created_at, sender, server_state,
  scheduled_at, time_zone, content_kind, optin_title, utility, kind, audience_labels, name_fallback,
  (SELECT name FROM pages WHERE pages.id = messages.page_id) AS page_name, ${MARKETING_COLUMNS}`

/** The user's messages in order; `open` leaves the finished ones out; `pageId` keeps that page's only. */
export async function listMessages(
  db: Queryable,
  userId: string,
  open: boolean,
  pageId?: string,
): Promise<StoredMessage[]> {
  const rows = await db.query<MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE user_id = $1 AND deleted_at IS NULL
       ${open ? "AND state NOT IN ('finished', 'cancelled')" : ''}
       AND ($2::text IS NULL OR page_id = $2) ORDER BY id`,
    [userId, pageId ?? null],
  )
  return rows.map(
    ({ budget_kind, budget_minor, currency, estimate_minor, spend_minor, marketing_sent, ...r }) => ({
      ...r,
      id: String(r.id),
      created_at: new Date(r.created_at).toISOString(),
      scheduled_at: r.scheduled_at ? new Date(r.scheduled_at).toISOString() : null,
      marketing: jobMarketingOf({
        budget_kind,
        budget_minor,
        currency,
        estimate_minor,
        spend_minor,
        marketing_sent,
      }),
    }),
  )
}

export async function setMessageState(
  db: Queryable,
  id: string,
  userId: string,
  body: MessageStateBody,
): Promise<void> {
  const updated = await db.query(
    `UPDATE messages SET state = $3, stop_reason = $4 WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING id`,
    [id, userId, body.state, body.reason ?? null],
  )
  if (updated.length === 0) throw new MessageNotFound()
  // An ended job needs no page token on the server any more.
  await db.query('DELETE FROM message_page_tokens WHERE message_id = $1', [id])
}

/** Kept as a record (its touches spent allowance); only hidden from the user's lists. */
export async function hideMessage(db: Queryable, id: string, userId: string): Promise<void> {
  const deleted = await db.query(
    'UPDATE messages SET deleted_at = now() WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING id',
    [id, userId],
  )
  if (deleted.length === 0) throw new MessageNotFound()
  await db.query('DELETE FROM message_page_tokens WHERE message_id = $1', [id])
}

/** A marketing job as its start reads it. */
export interface MarketingJobRow {
  page_id: string
  message: string
  image_url: string | null
  state: string
  sender: string
  lease: number
  kind: JobKind
  campaign_id: string | null
  currency: string | null
  estimate_minor: number | null
  /** How many of its recipients are reached with marketing messages. */
  marketing_count: number
}

/** The user's job as a marketing start needs it; throws MessageNotFound. */
export async function marketingJob(db: Queryable, id: string, userId: string): Promise<MarketingJobRow> {
  const [row] = await db.query<MarketingJobRow>(
    `SELECT page_id, message, image_url, state, sender, lease, kind, campaign_id, currency,
        estimate_minor::double precision AS estimate_minor,
        (SELECT count(*)::int FROM message_recipients r WHERE r.message_id = m.id AND r.way = 'marketing')
          AS marketing_count
       FROM messages m WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL`,
    [id, userId],
  )
  if (!row) throw new MessageNotFound()
  return row
}

/**
 * Opens again, for the device to hand over, a job a marketing failure stopped; answers its lease, or
 * undefined when it is not stopped so (one caller wins).
 */
export async function reopenMarketingJob(db: Queryable, id: string): Promise<number | undefined> {
  const [row] = await db.query<{ lease: number }>(
    `UPDATE messages SET state = 'open', sender = 'device', stop_reason = NULL, skipped_count = 0
      WHERE id = $1 AND state = 'stopped' AND stop_reason LIKE 'marketing:%' RETURNING lease`,
    [id],
  )
  return row?.lease
}

/** A marketing job's campaign at the network, as stored on the job. */
export interface JobCampaign {
  adAccountId: string
  campaignId: string
  marketingMessageId: string
  budget: { kind: string; minor: number }
  currency: string
  estimate: number
}

/**
 * Gives the job its campaign once: the message row is locked while `create` makes it at the network, so two
 * retried calls cannot both create one, and the campaign is stored in the same transaction. A job that has
 * one already answers it without calling `create`.
 */
export async function ensureJobCampaign(
  store: Store,
  id: string,
  create: () => Promise<JobCampaign>,
): Promise<{ campaignId: string; estimate: number }> {
  return store.transaction(async (tx) => {
    const [fresh] = await tx.query<{ campaign_id: string | null; estimate_minor: number | null }>(
      'SELECT campaign_id, estimate_minor::double precision AS estimate_minor FROM messages WHERE id = $1 FOR UPDATE',
      [id],
    )
    if (fresh!.campaign_id) return { campaignId: fresh!.campaign_id, estimate: fresh!.estimate_minor ?? 0 }
    const made = await create()
    await tx.query(
      `UPDATE messages SET ad_account_id = $2, campaign_id = $3, marketing_message_id = $4, budget_kind = $5,
          budget_minor = $6, currency = $7, estimate_minor = $8
        WHERE id = $1`,
      [
        id,
        made.adAccountId,
        made.campaignId,
        made.marketingMessageId,
        made.budget.kind,
        made.budget.minor,
        made.currency,
        made.estimate,
      ],
    )
    return { campaignId: made.campaignId, estimate: made.estimate }
  })
}

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
} from '../../core/contracts/api.ts'
import type { JobKind, JobMarketing } from '../../core/contracts/marketing.ts'
import type { UtilityContent } from '../../core/graph/template.ts'
import type { Queryable, Store } from '../db/store.ts'
import { dropToken, keepSealedToken } from './message-page-tokens.ts'

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
const MARKETING_COLUMNS = `budget_kind, budget_minor::double precision AS budget_minor, currency,
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
  lease, scheduled_at, time_zone, content_kind, optin_title, utility, kind, audience_labels, name_fallback,
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
  await dropToken(db, id)
}

/** Kept as a record (its touches spent allowance); only hidden from the user's lists. */
export async function hideMessage(db: Queryable, id: string, userId: string): Promise<void> {
  const deleted = await db.query(
    'UPDATE messages SET deleted_at = now() WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING id',
    [id, userId],
  )
  if (deleted.length === 0) throw new MessageNotFound()
  await dropToken(db, id)
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

/** A bulk job's row as the server sender reads it (bulk/server-sender.ts, repo/bulk-job-store.ts). */
export interface ServerJob {
  id: string
  user_id: string
  page_id: string
  message: string
  image_url: string | null
  tag: string | null
  messaging_type: 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG'
  state: string
  sender: 'device' | 'server'
  lease: number
  next_send_at: Date | null
  branded_from: number
  branded_messages_amount: number
  attachment_id: string | null
  total_messages: number
  /** A send (of any run of this job) may be in flight until then. */
  busy_until: Date | null
  /** What the job is, fixed at its creation: only a marketing job sends marketing messages. */
  kind: JobKind
  /** What the job sends: the owner's text, an opt-in request titled `optin_title`, or a utility message. */
  content_kind: 'text' | 'optin_request' | 'utility'
  optin_title: string | null
  /** A utility job's template and parameters. */
  utility: UtilityContent | null
  /** Written where the text takes a recipient's first name and the network has none. */
  name_fallback: string | null
  /** The job's campaign, when some recipients are reached as marketing messages. */
  ad_account_id: string | null
  campaign_id: string | null
  marketing_message_id: string | null
  budget_kind: 'daily' | 'total' | null
  budget_minor: number | null
  spend_minor: number | null
  spend_read_at: Date | null
  currency: string | null
}

export const JOB_COLUMNS = `id::text AS id, user_id::text AS user_id, page_id, message, image_url, tag, messaging_type, state,
  sender, lease, next_send_at, branded_from, branded_messages_amount, attachment_id, total_messages, busy_until,
  kind, content_kind, optin_title, utility, name_fallback, ad_account_id, campaign_id, marketing_message_id,
  budget_kind, budget_minor::double precision AS budget_minor, spend_minor::double precision AS spend_minor, spend_read_at, currency`

/** The job, unless it is deleted. */
export async function readJob(db: Queryable, id: string): Promise<ServerJob | undefined> {
  return (
    await db.query<ServerJob>(`SELECT ${JOB_COLUMNS} FROM messages WHERE id = $1 AND deleted_at IS NULL`, [
      id,
    ])
  )[0]
}

/** The user's job as a lease or a hand-over reads it, under its row lock. */
export interface LockedJob {
  page_id: string
  lease: number
  lease_holder: string | null
  sender: 'device' | 'server'
  state: string
  kind: JobKind
  total_messages: number
  created_at: Date
  /** A device lease was taken (and not given up to the server since). */
  held: boolean
  /** The device lease runs still. */
  live: boolean
}

/**
 * Runs `fn` in one transaction with the user's job locked (`FOR UPDATE`): what `fn` writes with the handle
 * it is given commits with the lock's decision, or not at all when it throws. Throws MessageNotFound.
 */
export async function withLockedJob<T>(
  store: Store,
  userId: string,
  id: string,
  fn: (tx: Queryable, job: LockedJob) => Promise<T>,
): Promise<T> {
  return store.transaction(async (tx) => {
    const [job] = await tx.query<LockedJob>(
      `SELECT page_id, lease, lease_holder, sender, state, kind, total_messages, created_at,
          lease_until IS NOT NULL AS held, coalesce(lease_until > now(), false) AS live
         FROM messages WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`,
      [id, userId],
    )
    if (!job) throw new MessageNotFound()
    return fn(tx, job)
  })
}

/**
 * Gives the device the lease `epoch` for `leaseMs` from now. "Keep sending" holds only with a page token
 * sealed now (`sealed`) or kept from before; the holder is kept on a renewal that names none.
 */
export async function setDeviceLease(
  db: Queryable,
  id: string,
  lease: {
    epoch: number
    leaseMs: number
    keepSending: boolean
    sealed: boolean
    holder: string | null
    renewing: boolean
  },
): Promise<void> {
  await db.query(
    `UPDATE messages SET lease = $2, lease_until = now() + make_interval(secs => $3::double precision / 1000),
        keep_sending = $4 AND ($5 OR EXISTS (SELECT 1 FROM message_page_tokens t WHERE t.message_id = $1)),
        lease_holder = CASE WHEN $7 THEN coalesce($6, lease_holder) ELSE $6 END
      WHERE id = $1`,
    [id, lease.epoch, lease.leaseMs, lease.keepSending, lease.sealed, lease.holder, lease.renewing],
  )
}

/** Renews the device's lease for `leaseMs` and marks a send in flight for `busyMs`, both from now. */
export async function renewLeaseBusy(
  db: Queryable,
  id: string,
  leaseMs: number,
  busyMs: number,
): Promise<void> {
  await db.query(
    `UPDATE messages SET lease_until = now() + make_interval(secs => $2::double precision / 1000),
        busy_until = now() + make_interval(secs => $3::double precision / 1000) WHERE id = $1`,
    [id, leaseMs, busyMs],
  )
}

/** Who sends the user's job and under which lease; undefined when the user has no such job. */
export async function jobLease(
  db: Queryable,
  userId: string,
  id: string,
): Promise<{ lease: number; sender: 'device' | 'server' } | undefined> {
  const [row] = await db.query<{ lease: number; sender: 'device' | 'server' }>(
    'SELECT lease, sender FROM messages WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL',
    [id, userId],
  )
  return row
}

/**
 * Gives the server every open "keep sending" job of `kinds` whose device lease lapsed and that has its sealed
 * page token and its whole recipient list: the lease moves on and the job is queued. Answers their ids.
 */
export async function takeLapsedJobs(db: Queryable, kinds: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE messages m SET sender = 'server', lease = lease + 1, lease_until = NULL, server_state = 'queued'
      WHERE state = 'open' AND sender = 'device' AND keep_sending AND deleted_at IS NULL
        AND lease_until < now() AND kind = ANY($1::text[])
        AND EXISTS (SELECT 1 FROM message_page_tokens t WHERE t.message_id = m.id)
        AND (SELECT count(*) FROM message_recipients r WHERE r.message_id = m.id) >= m.total_messages
      RETURNING id::text AS id`,
    [kinds],
  )
  return rows.map((r) => r.id)
}

/**
 * The job becomes the server's under `lease`, queued, with the device's pacing wait (epoch ms, or none), its
 * messaging type, where branding starts, and the attachment it uploaded (the stored one kept without).
 */
export async function handJobToServer(
  db: Queryable,
  id: string,
  job: {
    lease: number
    nextSendAt: number | null
    messagingType: string
    brandedFrom: number
    attachmentId: string | null
  },
): Promise<void> {
  await db.query(
    `UPDATE messages SET sender = 'server', lease = $2, server_state = 'queued', lease_until = NULL,
        next_send_at = CASE WHEN $3::double precision IS NULL THEN NULL ELSE to_timestamp($3::double precision / 1000) END,
        messaging_type = $4, branded_from = $5, attachment_id = COALESCE($6, attachment_id)
      WHERE id = $1`,
    [id, job.lease, job.nextSendAt, job.messagingType, job.brandedFrom, job.attachmentId],
  )
}

/**
 * The device takes the user's job: the lease moves on when the server held it, and runs `leaseMs` from now.
 * Answers the lease, the server's in-flight mark and the state; undefined when the user has no such job.
 */
export async function takeJobBack(
  db: Queryable,
  userId: string,
  id: string,
  leaseMs: number,
): Promise<{ lease: number; busy_until: Date | null; state: string } | undefined> {
  const [row] = await db.query<{ lease: number; busy_until: Date | null; state: string }>(
    `UPDATE messages SET lease = CASE WHEN sender = 'server' THEN lease + 1 ELSE lease END, sender = 'device',
        server_state = NULL, lease_until = now() + make_interval(secs => $3::double precision / 1000)
      WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL RETURNING lease, busy_until, state`,
    [id, userId, leaseMs],
  )
  return row
}

/** Until when a send of the job may be in flight (null: none). */
export async function jobBusyUntil(db: Queryable, id: string): Promise<Date | null> {
  const [row] = await db.query<{ busy_until: Date | null }>('SELECT busy_until FROM messages WHERE id = $1', [
    id,
  ])
  return row?.busy_until ?? null
}

/** Where the job's sending stands for the side that takes it on: its pacing wait, attachment and state. */
export async function jobResumePoint(
  db: Queryable,
  id: string,
): Promise<{ next_send_at: Date | null; attachment_id: string | null; state: string } | undefined> {
  const [row] = await db.query<{ next_send_at: Date | null; attachment_id: string | null; state: string }>(
    'SELECT next_send_at, attachment_id, state FROM messages WHERE id = $1',
    [id],
  )
  return row
}

/** A scheduled send as the owner sets it up (the time in epoch ms). */
export interface NewScheduled {
  page_id: string
  message: string
  image_url?: string | null
  label: string
  tag?: string | null
  messaging_type: 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG'
  scheduled_at: number
  time_zone: string
  include_waiting?: boolean
}

/** Creates a scheduled job, held by the server, with its sealed page token, in one transaction; answers its id. */
export async function createScheduledMessage(
  store: Store,
  userId: string,
  input: NewScheduled,
  sealed: Uint8Array,
): Promise<string> {
  return store.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO messages (user_id, page_id, message_type_id, message, image_url, label, tag, total_messages,
          branded_messages_amount, state, sender, messaging_type, scheduled_at, time_zone, kind, include_waiting)
        VALUES ($1, $2, 1, $3, $4, $5, $6, 0, 0, 'scheduled', 'server', $7, to_timestamp($8::double precision / 1000), $9,
          'standard', $10)
        RETURNING id`,
      [
        userId,
        input.page_id,
        input.message,
        input.image_url ?? null,
        input.label,
        input.tag ?? null,
        input.messaging_type,
        input.scheduled_at,
        input.time_zone,
        input.include_waiting ?? false,
      ],
    )
    const id = String(row!.id)
    await keepSealedToken(tx, { messageId: id, userId, pageId: input.page_id }, sealed)
    return id
  })
}

/** Changes a job that has not started; answers undefined when it started (or was cancelled) meanwhile. */
export async function editScheduled(
  db: Queryable,
  userId: string,
  id: string,
  changes: {
    message?: string | undefined
    scheduled_at?: number | undefined
    time_zone?: string | undefined
  },
): Promise<{ queue_job_id: string | null } | undefined> {
  return (
    await db.query<{ queue_job_id: string | null }>(
      `UPDATE messages SET message = COALESCE($3, message),
          scheduled_at = COALESCE(to_timestamp($4::double precision / 1000), scheduled_at),
          time_zone = COALESCE($5, time_zone)
        WHERE id = $1 AND user_id = $2 AND state = 'scheduled' AND deleted_at IS NULL
        RETURNING (SELECT queue_job_id FROM messages WHERE id = $1) AS queue_job_id`,
      [id, userId, changes.message ?? null, changes.scheduled_at ?? null, changes.time_zone ?? null],
    )
  )[0]
}

/** Cancels the user's job that has not started; answers its queue job, or undefined when it had started. */
export async function cancelScheduledMessage(
  db: Queryable,
  userId: string,
  id: string,
): Promise<{ queue_job_id: string | null } | undefined> {
  const [row] = await db.query<{ queue_job_id: string | null }>(
    `UPDATE messages SET state = 'cancelled' WHERE id = $1 AND user_id = $2 AND state = 'scheduled' AND deleted_at IS NULL
      RETURNING queue_job_id`,
    [id, userId],
  )
  return row
}

/** The queue job that starts the scheduled job (null: none). */
export async function setQueueJob(db: Queryable, id: string, queueJobId: string | null): Promise<void> {
  await db.query('UPDATE messages SET queue_job_id = $2 WHERE id = $1', [id, queueJobId])
}

/** A scheduled job as its start reads it; undefined when it is deleted. */
export async function scheduledJob(
  db: Queryable,
  id: string,
): Promise<{ user_id: string; page_id: string; state: string; include_waiting: boolean } | undefined> {
  const [row] = await db.query<{ user_id: string; page_id: string; state: string; include_waiting: boolean }>(
    `SELECT user_id::text AS user_id, page_id, state, include_waiting FROM messages
      WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  )
  return row
}

/** Stops the job with `reason`, whatever its state. */
export async function stopJob(db: Queryable, id: string, reason: string): Promise<void> {
  await db.query(`UPDATE messages SET state = 'stopped', stop_reason = $2 WHERE id = $1`, [id, reason])
}

/** Stops the job with `reason` if it has not started. */
export async function stopScheduled(db: Queryable, id: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE messages SET state = 'stopped', stop_reason = $2 WHERE id = $1 AND state = 'scheduled'`,
    [id, reason],
  )
}

/** Stops the user's scheduled jobs on the page with `reason`; answers their ids. */
export async function stopScheduledOfPage(
  db: Queryable,
  userId: string,
  pageId: string,
  reason: string,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE messages SET state = 'stopped', stop_reason = $3
      WHERE user_id = $1 AND page_id = $2 AND state = 'scheduled' AND deleted_at IS NULL RETURNING id::text`,
    [userId, pageId, reason],
  )
  return rows.map((r) => r.id)
}

/** The ids of the user's open jobs on the page that the server sends. */
export async function serverJobsOfPage(db: Queryable, userId: string, pageId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id::text FROM messages
      WHERE user_id = $1 AND page_id = $2 AND sender = 'server' AND state = 'open' AND deleted_at IS NULL`,
    [userId, pageId],
  )
  return rows.map((r) => r.id)
}

/**
 * Opens the scheduled job for the server to send, in one transaction with what `list` writes with the handle
 * it is given (its recipients): `total` recipients, branded from `brandedFrom` (-1: none), the lease moved on.
 * Answers false, without calling `list`, when the job is no longer scheduled.
 */
export async function openScheduledJob(
  store: Store,
  id: string,
  plan: { total: number; brandedFrom: number; brandedAmount: number },
  list: (tx: Queryable) => Promise<void>,
): Promise<boolean> {
  return store.transaction(async (tx) => {
    const moved = await tx.query(
      `UPDATE messages SET state = 'open', sender = 'server', total_messages = $2, branded_from = $3,
          branded_messages_amount = $4, lease = lease + 1, server_state = 'queued', recipients_listed = true
        WHERE id = $1 AND state = 'scheduled' RETURNING id`,
      [id, plan.total, plan.brandedFrom, plan.brandedAmount],
    )
    if (moved.length === 0) return false
    await list(tx)
    return true
  })
}

/** Stores a reading of the job's campaign spend (minor units) taken at `at` (epoch ms). */
export async function setJobSpend(db: Queryable, id: string, spendMinor: number, at: number): Promise<void> {
  await db.query(
    `UPDATE messages SET spend_minor = $2, spend_read_at = to_timestamp($3::double precision / 1000) WHERE id = $1`,
    [id, spendMinor, at],
  )
}

/** A job's counts and state as its progress event tells them. */
export interface JobProgressRow extends MarketingColumns {
  user_id: string
  page_id: string
  ok_count: number
  ng_count: number
  skipped_count: number
  total_messages: number
  state: string
  sender: 'device' | 'server'
  server_state: string | null
  stop_reason: string | null
  lease: number
}

export async function jobProgress(db: Queryable, id: string): Promise<JobProgressRow | undefined> {
  const [row] = await db.query<JobProgressRow>(
    `SELECT user_id::text AS user_id, page_id, ok_count, ng_count, skipped_count, total_messages, state, sender,
        server_state, stop_reason, lease, ${MARKETING_COLUMNS}
       FROM messages WHERE id = $1`,
    [id],
  )
  return row
}

/**
 * Marketing messages on the server: the pages that turned them on (with the ad account the network bills),
 * each page's subscriber list, and the opt-in requests sent (the network's one-per-title-per-week limit).
 *
 * The subscriber list is one row per person and page. Opt-in, opt-out and resume webhooks and the page's
 * subscription token list all apply as events at their own time: an event older than the newest one applied
 * to the person changes nothing, so a redelivered or reordered webhook, or a token created before an
 * opt-out, never brings a person back. An opt-out takes effect at once. A token past its expiry is never
 * active. Subscription tokens are sealed with the page-token key and only opened at send time.
 */
import type { TokenBox } from '../bulk/token-box.ts'
import type { Queryable, Store } from '../db/store.ts'
import { recordOptInMessages } from './optin-messages.ts'
import { publishToPage } from './owner-events.ts'
import { OPTIN_REQUEST_INTERVAL_MS } from '../../core/contracts/marketing.ts'
import type { OptinCheckResponse, OptinRefusal, OptinRequestMessage } from '../../core/contracts/marketing.ts'

export interface MarketingPageRow {
  page_id: string
  user_id: string
  ad_account_id: string
  ad_account_name: string
  currency: string
  country: string | null
  enabled: boolean
  enabled_at: Date | null
  updated_at: Date
  tokens_synced_at: Date | null
  tokens_cursor: string | null
}

export type SubscriberStatus = 'active' | 'stopped' | 'expired'
export type SubscriberSource = 'webhook' | 'token_list'

/** One change to a person's subscription, at the network's time of it (epoch ms). */
export interface SubscriberEvent {
  pageId: string
  psid: string
  at: number
  /** `optin` (a first opt-in or a token from the list), `resume` (opted back in) or `stop` (opted out). */
  kind: 'optin' | 'resume' | 'stop'
  token?: string | undefined
  title?: string | undefined
  /** When the token expires (epoch ms). */
  expiresAt?: number | undefined
  timezone?: string | undefined
  source: SubscriberSource
}

export interface SubscriberCounts {
  active: number
  stopped: number
}

/** Epoch milliseconds of a network timestamp given in seconds or milliseconds, as a number or a string. */
export function networkTime(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN
  if (!Number.isFinite(n) || n <= 0) return undefined
  // Seconds until the year 33658; anything larger is milliseconds.
  return n < 1e12 ? n * 1000 : n
}

const ACTIVE = `status = 'active' AND (expires_at IS NULL OR expires_at > $2)`

export async function marketingPage(db: Queryable, pageId: string): Promise<MarketingPageRow | null> {
  const [row] = await db.query<MarketingPageRow & { user_id: number | string }>(
    'SELECT * FROM marketing_pages WHERE page_id = $1',
    [pageId],
  )
  return row ? { ...row, user_id: String(row.user_id) } : null
}

/**
 * The subscription token to send a marketing message to this person with, read at send time: null when they
 * opted out, their token expired, or they never subscribed.
 */
export async function activeSubscriberToken(
  db: Queryable,
  box: TokenBox,
  pageId: string,
  psid: string,
  now: Date = new Date(),
): Promise<string | null> {
  const [row] = await db.query<{ token: Uint8Array }>(
    `SELECT token FROM marketing_subscribers WHERE page_id = $1 AND psid = $3 AND ${ACTIVE}`,
    [pageId, now, psid],
  )
  return row ? box.open(row.token) : null
}

/** The page's active subscribers (page-scoped ids, oldest first). */
export async function activeSubscriberPsids(
  db: Queryable,
  pageId: string,
  now: Date = new Date(),
): Promise<string[]> {
  const rows = await db.query<{ psid: string }>(
    `SELECT psid FROM marketing_subscribers WHERE page_id = $1 AND ${ACTIVE} ORDER BY event_at, psid`,
    [pageId, now],
  )
  return rows.map((r) => r.psid)
}

export async function subscriberCounts(
  db: Queryable,
  pageId: string,
  now: Date = new Date(),
): Promise<SubscriberCounts> {
  const [row] = await db.query<SubscriberCounts>(
    `SELECT count(*) FILTER (WHERE ${ACTIVE})::int AS active,
       count(*) FILTER (WHERE status = 'stopped')::int AS stopped
     FROM marketing_subscribers WHERE page_id = $1`,
    [pageId, now],
  )
  return { active: Number(row?.active ?? 0), stopped: Number(row?.stopped ?? 0) }
}

/**
 * Applies one event to the person's row unless a newer one was applied already (at the same moment, only an
 * opt-out wins). Answers whether it changed the row and whether the person became an active subscriber.
 */
export async function applySubscriberEvent(
  db: Queryable,
  box: TokenBox,
  ev: SubscriberEvent,
  now: Date = new Date(),
): Promise<{ applied: boolean; activated: boolean }> {
  const [before] = await db.query<{ status: SubscriberStatus; expires_at: Date | null }>(
    'SELECT status, expires_at FROM marketing_subscribers WHERE page_id = $1 AND psid = $2 FOR UPDATE',
    [ev.pageId, ev.psid],
  )
  // Without a token nobody can be reached: an opt-in without one only counts for a person already known.
  if (ev.kind !== 'stop' && !ev.token && !before) return { applied: false, activated: false }
  const expiresAt = ev.token ? ev.expiresAt : before?.expires_at?.getTime()
  const status: SubscriberStatus =
    ev.kind === 'stop'
      ? 'stopped'
      : expiresAt !== undefined && expiresAt <= now.getTime()
        ? 'expired'
        : 'active'
  const rows = await db.query(
    `INSERT INTO marketing_subscribers (page_id, psid, token, title, status, expires_at, timezone, event_at, source)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (page_id, psid) DO UPDATE SET
       token = CASE WHEN $10 THEN EXCLUDED.token ELSE marketing_subscribers.token END,
       expires_at = CASE WHEN $10 THEN EXCLUDED.expires_at ELSE marketing_subscribers.expires_at END,
       title = COALESCE(EXCLUDED.title, marketing_subscribers.title),
       timezone = COALESCE(EXCLUDED.timezone, marketing_subscribers.timezone),
       status = EXCLUDED.status, event_at = EXCLUDED.event_at, source = EXCLUDED.source, updated_at = now()
     WHERE marketing_subscribers.event_at < EXCLUDED.event_at
       OR (marketing_subscribers.event_at = EXCLUDED.event_at AND EXCLUDED.status = 'stopped'
           AND marketing_subscribers.status <> 'stopped')
     RETURNING 1`,
    [
      ev.pageId,
      ev.psid,
      box.seal(ev.token ?? ''),
      ev.title ?? null,
      status,
      expiresAt !== undefined ? new Date(expiresAt) : null,
      ev.timezone ?? null,
      new Date(ev.at),
      ev.source,
      Boolean(ev.token),
    ],
  )
  const applied = rows.length > 0
  const wasActive =
    before?.status === 'active' && (before.expires_at === null || before.expires_at.getTime() > now.getTime())
  return { applied, activated: applied && status === 'active' && !wasActive }
}

/** One entry of the page's token list (`/{page-id}/notification_message_tokens`). */
export interface TokenListEntry {
  notification_messages_token: string
  recipient_id: string
  token_expiry_timestamp?: number | string | undefined
  creation_timestamp?: number | string | undefined
  notification_messages_timezone?: string | undefined
  title?: string | undefined
}

/**
 * Applies the page's token list: each token is an opt-in at its creation time, so a person who opted out
 * after it stays out. A token without a creation time only adds a person not known yet. Answers how many
 * people became active subscribers.
 */
export async function applyTokenList(
  db: Queryable,
  box: TokenBox,
  pageId: string,
  entries: readonly TokenListEntry[],
  now: Date = new Date(),
): Promise<number> {
  let added = 0
  for (const e of entries) {
    if (!e.notification_messages_token || !/^\d{1,64}$/.test(e.recipient_id)) continue
    const { activated } = await applySubscriberEvent(
      db,
      box,
      {
        pageId,
        psid: e.recipient_id,
        at: networkTime(e.creation_timestamp) ?? 0,
        kind: 'optin',
        token: e.notification_messages_token,
        title: e.title,
        expiresAt: networkTime(e.token_expiry_timestamp),
        timezone: e.notification_messages_timezone,
        source: 'token_list',
      },
      now,
    )
    if (activated) added++
  }
  return added
}

/**
 * After a complete read of the page's token list: every active subscriber the list did not contain (they
 * opted out while the webhook was lost, or the token lapsed) is no longer reachable and becomes 'expired'.
 * People whose newest event is not older than the sync's start (`startedAt`, the event clock) or whose row
 * changed since it started (`dbStartedAt`, the database clock: an opt-in webhook racing the sync) are kept.
 * Answers how many were dropped. Call it in the transaction that applies the list.
 */
export async function dropUnlistedSubscribers(
  db: Queryable,
  pageId: string,
  listed: readonly string[],
  startedAt: Date,
  dbStartedAt: Date,
): Promise<number> {
  const rows = await db.query(
    `UPDATE marketing_subscribers SET status = 'expired', updated_at = now()
     WHERE page_id = $1 AND status = 'active' AND NOT (psid = ANY($2::text[]))
       AND event_at < $3 AND updated_at < $4
     RETURNING 1`,
    [pageId, [...listed], startedAt, dbStartedAt],
  )
  return rows.length
}

export async function markTokensSynced(db: Queryable, pageId: string, cursor: string | null): Promise<void> {
  await db.query(
    'UPDATE marketing_pages SET tokens_synced_at = now(), tokens_cursor = $2 WHERE page_id = $1',
    [pageId, cursor],
  )
}

export interface EnableInput {
  pageId: string
  userId: string
  adAccountId: string
  adAccountName: string
  currency: string
  country: string | null
}

export async function enableMarketing(db: Queryable, input: EnableInput): Promise<void> {
  await db.query(
    `INSERT INTO marketing_pages (page_id, user_id, ad_account_id, ad_account_name, currency, country, enabled, enabled_at)
       VALUES ($1, $2, $3, $4, $5, $6, true, now())
     ON CONFLICT (page_id) DO UPDATE SET user_id = EXCLUDED.user_id, ad_account_id = EXCLUDED.ad_account_id,
       ad_account_name = EXCLUDED.ad_account_name, currency = EXCLUDED.currency, country = EXCLUDED.country,
       enabled = true, enabled_at = now(), updated_at = now()`,
    [input.pageId, input.userId, input.adAccountId, input.adAccountName, input.currency, input.country],
  )
}

/** Turns marketing messages off for the page; its subscribers are kept. */
export async function disableMarketing(db: Queryable, pageId: string): Promise<void> {
  await db.query('UPDATE marketing_pages SET enabled = false, updated_at = now() WHERE page_id = $1', [
    pageId,
  ])
}

/** Records opt-in requests sent with this title (the later time is kept). */
export async function recordOptInRequests(
  db: Queryable,
  pageId: string,
  psids: readonly string[],
  title: string,
  at: Date,
): Promise<void> {
  const unique = [...new Set(psids)]
  if (unique.length === 0) return
  await db.query(
    `INSERT INTO optin_requests (page_id, psid, title, sent_at)
       SELECT $1, p, $3, $4 FROM unnest($2::text[]) AS p
     ON CONFLICT (page_id, psid, title) DO UPDATE
       SET sent_at = GREATEST(optin_requests.sent_at, EXCLUDED.sent_at)`,
    [pageId, unique, title, at],
  )
}

/**
 * Who may be sent an opt-in request with this title now: not an active subscriber, and not asked with the
 * same title in the last 7 days (then `next_at` says when).
 */
export async function checkOptInRequests(
  db: Queryable,
  pageId: string,
  psids: readonly string[],
  title: string,
  now: Date = new Date(),
): Promise<OptinCheckResponse> {
  const unique = [...new Set(psids)]
  const subscribed = new Set(
    (
      await db.query<{ psid: string }>(
        `SELECT psid FROM marketing_subscribers WHERE page_id = $1 AND ${ACTIVE} AND psid = ANY($3::text[])`,
        [pageId, now, unique],
      )
    ).map((r) => r.psid),
  )
  const asked = new Map(
    (
      await db.query<{ psid: string; sent_at: Date }>(
        `SELECT psid, sent_at FROM optin_requests
         WHERE page_id = $1 AND title = $2 AND psid = ANY($3::text[]) AND sent_at > $4`,
        [pageId, title, unique, new Date(now.getTime() - OPTIN_REQUEST_INTERVAL_MS)],
      )
    ).map((r) => [r.psid, r.sent_at]),
  )
  const allowed: string[] = []
  const refused: OptinRefusal[] = []
  for (const psid of unique) {
    const sentAt = asked.get(psid)
    if (subscribed.has(psid)) refused.push({ psid, reason: 'subscribed' })
    else if (sentAt)
      refused.push({
        psid,
        reason: 'asked_this_week',
        next_at: new Date(sentAt.getTime() + OPTIN_REQUEST_INTERVAL_MS).toISOString(),
      })
    else allowed.push(psid)
  }
  return { allowed, refused }
}

/** The database's clock now (rows' `updated_at` are on it, not on the server's). */
export async function databaseNow(db: Queryable): Promise<Date> {
  const [clock] = await db.query<{ t: Date | string }>('SELECT now() AS t')
  return new Date(clock!.t)
}

/** Tells the page's owners' apps its subscriber counts (`marketing_subscribers`). */
export async function publishSubscriberCounts(db: Queryable, pageId: string, now: Date): Promise<void> {
  await publishToPage(db, pageId, 'marketing_subscribers', {
    pageId,
    ...(await subscriberCounts(db, pageId, now)),
  })
}

/** A read of the page's token list, to apply. */
export interface TokenListRead {
  entries: readonly TokenListEntry[]
  /** The last page was reached: only then are the active subscribers the list lacks dropped. */
  complete: boolean
  /** The last cursor read. */
  cursor: string | null
  /** When the read started, on the event clock and on the database's. */
  startedAt: Date
  dbStartedAt: Date
}

/**
 * Applies a read of the page's token list in one transaction: adds and updates from it, drops the active
 * subscribers a complete read no longer contains, records the sync and tells the page's owners the counts.
 */
export async function applyTokenSync(
  store: Store,
  box: TokenBox,
  pageId: string,
  read: TokenListRead,
  now: Date,
): Promise<{ added: number; removed: number }> {
  return store.transaction(async (tx) => {
    const added = await applyTokenList(tx, box, pageId, read.entries, now)
    const removed = read.complete
      ? await dropUnlistedSubscribers(
          tx,
          pageId,
          read.entries.map((e) => e.recipient_id).filter((psid) => typeof psid === 'string'),
          read.startedAt,
          read.dbStartedAt,
        )
      : 0
    await markTokensSynced(tx, pageId, read.cursor)
    await publishSubscriberCounts(tx, pageId, now)
    return { added, removed }
  })
}

/** Turns marketing messages on for the page and tells its owners the counts, in one transaction. */
export async function turnOnMarketing(store: Store, input: EnableInput, now: Date): Promise<void> {
  await store.transaction(async (tx) => {
    await enableMarketing(tx, input)
    await publishSubscriberCounts(tx, input.pageId, now)
  })
}

/** Turns marketing messages off for the page and tells its owners the counts, in one transaction. */
export async function turnOffMarketing(store: Store, pageId: string, now: Date): Promise<void> {
  await store.transaction(async (tx) => {
    await disableMarketing(tx, pageId)
    await publishSubscriberCounts(tx, pageId, now)
  })
}

/** Records opt-in requests sent with this title, and their messages by id, in one transaction. */
export async function recordSentOptInRequests(
  store: Store,
  pageId: string,
  psids: readonly string[],
  messages: readonly OptinRequestMessage[],
  title: string,
  at: Date,
): Promise<void> {
  await store.transaction(async (tx) => {
    await recordOptInRequests(tx, pageId, psids, title, at)
    await recordOptInMessages(tx, pageId, messages, title, at)
  })
}

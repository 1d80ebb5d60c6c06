/**
 * A page's send history and each send's report (src/core/contracts/send-history.ts): the sends of an owner
 * and page that ended in the last 90 days, dismissed from the cards or not. A report counts sent, rejected by
 * the network's reason, delivered, read and replied (the customer wrote to the page within 24 h after
 * receiving it), and lists the recipients. Ended sends older than that are purged (`purgeSendHistory`).
 */
import {
  HISTORY_DAYS,
  type HistoryEntry,
  type HistoryList,
  REPLY_WINDOW_HOURS,
  type ReportRecipient,
  type SendReport,
} from '../../core/contracts/send-history.ts'
import type { Queryable } from '../db/store.ts'
import { MessageNotFound } from './messages.ts'

/** A recipient's reply: the customer wrote to the page after the send was recorded and within the window. */
const REPLIED = `EXISTS (SELECT 1 FROM page_messages pm
  WHERE pm.page_id = m.page_id AND pm.customer_id = mr.recipient_id AND NOT pm.from_page
    AND pm.created_time > mr.touched_at
    AND pm.created_time <= mr.touched_at + make_interval(hours => ${REPLY_WINDOW_HOURS}))`

const ENDED = `m.state IN ('finished', 'stopped')
  AND m.created_at > now() - make_interval(days => ${HISTORY_DAYS})`

const ENTRY_COLUMNS = `m.id, m.page_id, p.name AS page_name, m.message, m.kind, m.state, m.stop_reason,
  m.created_at, m.deleted_at IS NOT NULL AS dismissed, m.total_messages AS total, m.ok_count AS sent,
  m.ng_count AS rejected, m.skipped_count AS skipped, m.delivered_count AS delivered, m.read_count AS read,
  (SELECT count(*)::int FROM message_recipients mr WHERE mr.message_id = m.id AND mr.status = 'OK'
    AND ${REPLIED}) AS replied`

interface EntryRow {
  id: number | string
  page_id: string
  page_name: string | null
  message: string
  kind: HistoryEntry['kind']
  state: HistoryEntry['state']
  stop_reason: string | null
  created_at: Date | string
  dismissed: boolean
  total: number
  sent: number
  rejected: number
  skipped: number
  delivered: number
  read: number
  replied: number
}

function entryOf(r: EntryRow): HistoryEntry {
  return {
    id: String(r.id),
    page_id: r.page_id,
    page_name: r.page_name,
    message: r.message,
    kind: r.kind,
    state: r.state,
    stop_reason: r.stop_reason,
    created_at: new Date(r.created_at).toISOString(),
    dismissed: r.dismissed,
    figures: {
      total: r.total,
      sent: r.sent,
      rejected: r.rejected,
      skipped: r.skipped,
      delivered: r.delivered,
      read: r.read,
      replied: r.replied,
    },
  }
}

/** The owner's ended sends of the page, newest first; `before` is the last id of the previous page. */
export async function listHistory(
  db: Queryable,
  userId: string,
  pageId: string,
  opts: { before?: string | undefined; limit: number },
): Promise<HistoryList> {
  const rows = await db.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM messages m LEFT JOIN pages p ON p.id = m.page_id
       WHERE m.user_id = $1 AND m.page_id = $2 AND ${ENDED} AND ($3::bigint IS NULL OR m.id < $3::bigint)
       ORDER BY m.id DESC LIMIT $4`,
    [userId, pageId, opts.before ?? null, opts.limit + 1],
  )
  const more = rows.length > opts.limit
  const data = rows.slice(0, opts.limit).map(entryOf)
  return { data, next: more ? data[data.length - 1]!.id : null }
}

async function entry(db: Queryable, userId: string, id: string): Promise<HistoryEntry> {
  const [row] = await db.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM messages m LEFT JOIN pages p ON p.id = m.page_id
       WHERE m.id = $1 AND m.user_id = $2 AND ${ENDED}`,
    [id, userId],
  )
  if (!row) throw new MessageNotFound()
  return entryOf(row)
}

interface RecipientRow {
  seq: number | string
  recipient_id: string
  name: string
  status: 'OK' | 'NG' | null
  reason: string | null
  touched_at: Date | string | null
  delivered: boolean
  read: boolean
  replied: boolean
}

const RECIPIENT_COLUMNS = `mr.seq, mr.recipient_id, mr.name, mr.status,
  CASE WHEN mr.status = 'NG' THEN mr.error_data->>'error_message' END AS reason, mr.touched_at,
  mr.status = 'OK' AND mr.delivered_at IS NOT NULL AS delivered,
  mr.status = 'OK' AND mr.read_at IS NOT NULL AS read,
  mr.status = 'OK' AND ${REPLIED} AS replied`

function recipientOf(r: RecipientRow): ReportRecipient {
  return {
    recipient_id: r.recipient_id,
    name: r.name,
    status: r.status === 'OK' ? 'sent' : r.status === 'NG' ? 'rejected' : 'not_sent',
    reason: r.status === 'NG' ? (r.reason ?? '') : null,
    sent_at: r.status === 'OK' && r.touched_at ? new Date(r.touched_at).toISOString() : null,
    delivered: r.delivered,
    read: r.read,
    replied: r.replied,
  }
}

async function recipientRows(
  db: Queryable,
  id: string,
  after: string | undefined,
  limit: number | null,
): Promise<RecipientRow[]> {
  return db.query<RecipientRow>(
    `SELECT ${RECIPIENT_COLUMNS} FROM message_recipients mr JOIN messages m ON m.id = mr.message_id
       WHERE mr.message_id = $1 AND ($2::bigint IS NULL OR mr.seq > $2::bigint) ORDER BY mr.seq LIMIT $3`,
    [id, after ?? null, limit],
  )
}

/** An ended send's report with a page of its recipients (in the order they were listed). */
export async function sendReport(
  db: Queryable,
  userId: string,
  id: string,
  page: { after?: string | undefined; limit: number },
): Promise<SendReport> {
  const job = await entry(db, userId, id)
  const reasons = await db.query<{ reason: string; count: number }>(
    `SELECT COALESCE(error_data->>'error_message', '') AS reason, count(*)::int AS count
       FROM message_recipients WHERE message_id = $1 AND status = 'NG'
       GROUP BY 1 ORDER BY 2 DESC, 1`,
    [id],
  )
  const rows = await recipientRows(db, id, page.after, page.limit + 1)
  const more = rows.length > page.limit
  const shown = rows.slice(0, page.limit)
  return {
    job,
    rejected_by_reason: reasons,
    recipients: shown.map(recipientOf),
    next: more ? String(shown[shown.length - 1]!.seq) : null,
  }
}

/** Every recipient of an ended send's report, for the CSV export. */
export async function reportRecipients(
  db: Queryable,
  userId: string,
  id: string,
): Promise<{ job: HistoryEntry; recipients: ReportRecipient[] }> {
  const job = await entry(db, userId, id)
  return { job, recipients: (await recipientRows(db, id, undefined, null)).map(recipientOf) }
}

/** Deletes the ended sends older than the history keeps (their recipients go with them); answers how many. */
export async function purgeSendHistory(db: Queryable): Promise<number> {
  const rows = await db.query(
    `DELETE FROM messages WHERE state IN ('finished', 'stopped', 'cancelled')
       AND created_at <= now() - make_interval(days => $1) RETURNING id`,
    [HISTORY_DAYS],
  )
  return rows.length
}

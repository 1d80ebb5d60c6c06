/** The `message_recipients` table: a message's audience in order, and each recipient's result. */
import type { RecipientInput, RecipientsPage } from '../../core/contracts/api.ts'
import type { Queryable, Store } from '../db/store.ts'
import { ownMessage, RecipientsOverflow } from './messages.ts'

/**
 * Appends recipients in the caller's order, ignoring repeats, in one transaction (an overflow rolls back).
 * A list longer than the job's total, or one that would take the stored list past it, is refused whole.
 */
export async function appendRecipients(
  store: Store,
  id: string,
  userId: string,
  recipients: readonly RecipientInput[],
): Promise<{ added: number; total: number }> {
  return store.transaction((tx) => appendInTransaction(tx, id, userId, recipients))
}

async function appendInTransaction(
  tx: Queryable,
  id: string,
  userId: string,
  recipients: readonly RecipientInput[],
): Promise<{ added: number; total: number }> {
  const { total_messages } = await ownMessage(tx, id, userId)
  // No list may be longer than its job, repeats included: a retry resends at most what the job holds.
  if (recipients.length > total_messages) throw new RecipientsOverflow(total_messages, recipients.length)
  // From now on only the listed recipients can be touched. The message row is locked first, as a touch does.
  await tx.query('UPDATE messages SET recipients_listed = true WHERE id = $1', [id])
  const added = await insertRecipients(tx, id, recipients)
  const total = await countRecipients(tx, id)
  if (total > total_messages) throw new RecipientsOverflow(total_messages, total)
  return { added, total }
}

/**
 * Adds recipients to the job in the given order (their sequence numbers follow it), ignoring repeats and the
 * recipients it has already; answers how many were added.
 */
export async function insertRecipients(
  db: Queryable,
  id: string,
  recipients: readonly Pick<RecipientInput, 'recipient_id' | 'name' | 'conversation_id' | 'way'>[],
): Promise<number> {
  // unnest WITH ORDINALITY keeps the caller's order in the sequence numbers and the positions; repeats are
  // ignored. The caller holds the message row's lock (as a touch takes it), so no other insert numbers its
  // recipients meanwhile: a position is how many recipients the job had before this one.
  const added = await db.query(
    `WITH listed AS (
       SELECT DISTINCT ON (r) r, n, c, w, o
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(r, n, c, w, o)
        WHERE NOT EXISTS (SELECT 1 FROM message_recipients x WHERE x.message_id = $1 AND x.recipient_id = t.r)
        ORDER BY r, o
     ), known AS (SELECT count(*)::int AS before FROM message_recipients WHERE message_id = $1)
     INSERT INTO message_recipients (message_id, recipient_id, name, conversation_id, way, position)
         SELECT $1, r, n, c, w, known.before + row_number() OVER (ORDER BY o) - 1 FROM listed, known
         ORDER BY o
         ON CONFLICT (message_id, recipient_id) DO NOTHING RETURNING recipient_id`,
    [
      id,
      recipients.map((r) => r.recipient_id),
      recipients.map((r) => r.name),
      recipients.map((r) => r.conversation_id),
      recipients.map((r) => r.way ?? 'standard'),
    ],
  )
  return added.length
}

/** How many recipients the job has. */
export async function countRecipients(db: Queryable, id: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM message_recipients WHERE message_id = $1',
    [id],
  )
  return Number(row!.n)
}

/**
 * The device's write-ahead for one recipient without a result: attempted `slackMs` before the database's
 * clock (for the network's clock), as branded or not, its image sent when it says so.
 */
export async function reserveRecipient(
  db: Queryable,
  id: string,
  r: { recipient_id: string; branded?: boolean | undefined; image_sent?: boolean | undefined },
  slackMs: number,
): Promise<void> {
  await db.query(
    `UPDATE message_recipients SET attempt_at = now() - make_interval(secs => $4::double precision / 1000),
        attempts = attempts + 1, attempt_branded = $3, image_sent = image_sent OR $5
      WHERE message_id = $1 AND recipient_id = $2 AND status IS NULL`,
    [id, r.recipient_id, r.branded ?? false, slackMs, r.image_sent ?? false],
  )
}

/** A send the device cannot vouch for: the recipient without a result is marked attempted at its attempt time. */
export async function markUncertain(
  db: Queryable,
  id: string,
  u: {
    recipient_id: string
    attempt_at: number
    image_sent?: boolean | undefined
    branded?: boolean | undefined
  },
): Promise<void> {
  await db.query(
    `UPDATE message_recipients SET attempt_at = to_timestamp($3::double precision / 1000),
        image_sent = $4, attempt_branded = $5, attempts = attempts + 1
      WHERE message_id = $1 AND recipient_id = $2 AND status IS NULL`,
    [id, u.recipient_id, u.attempt_at, u.image_sent ?? false, u.branded ?? false],
  )
}

/**
 * How many of the job's first recipients a device that reserved nothing may have reached: those up to the
 * last one with a result, and `tail` more. 0 when any recipient has an attempt time (the device reserves).
 */
export async function reachedCount(db: Queryable, id: string, tail: number): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT CASE WHEN bool_or(r.attempt_at IS NOT NULL) THEN 0
            ELSE (SELECT count(*)::int FROM message_recipients o WHERE o.message_id = $1
                    AND o.seq <= coalesce(max(r.seq) FILTER (WHERE r.status IS NOT NULL), 0)) + $2 END AS n
       FROM message_recipients r WHERE r.message_id = $1`,
    [id, tail],
  )
  return row!.n
}

/** The job's first `count` recipients without a result or an attempt are marked attempted at `at`. */
export async function markReached(db: Queryable, id: string, count: number, at: Date): Promise<void> {
  await db.query(
    `UPDATE message_recipients SET attempt_at = $3, attempts = attempts + 1
      WHERE message_id = $1 AND status IS NULL AND attempt_at IS NULL
        AND seq IN (SELECT seq FROM message_recipients WHERE message_id = $1 ORDER BY seq LIMIT $2)`,
    [id, count, at],
  )
}

interface RecipientRow {
  seq: number
  recipient_id: string
  name: string
  conversation_id: string | null
  status: 'OK' | 'NG' | null
  sent_as_branded: boolean
  way: 'standard' | 'marketing'
}

/** One page of a message's recipients in insertion order; `next` is the cursor for `after`. */
export async function recipientsPage(
  db: Queryable,
  id: string,
  userId: string,
  after: string | undefined,
  limit: number,
): Promise<RecipientsPage> {
  await ownMessage(db, id, userId)
  const rows = await db.query<RecipientRow>(
    `SELECT seq, recipient_id, name, conversation_id, status, sent_as_branded, way FROM message_recipients
       WHERE message_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [id, after ?? '0', limit + 1],
  )
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  return {
    data: page.map(({ seq: _seq, conversation_id, way, ...r }) => ({
      ...r,
      conversation_id: conversation_id ?? '',
      ...(way === 'marketing' ? { way } : {}),
    })),
    next: more ? String(page[page.length - 1]!.seq) : null,
  }
}

/** A recipient reserved (attempted) without a result, with its attempt time (epoch ms). */
export interface Reserved {
  recipient_id: string
  attempt_at: number
  image_sent: boolean
  branded: boolean
}

/** The recipients reserved (attempted) without a result, in order. */
export async function reserved(db: Queryable, id: string): Promise<Reserved[]> {
  const rows = await db.query<{
    recipient_id: string
    attempt_at: Date
    image_sent: boolean
    branded: boolean
  }>(
    `SELECT recipient_id, attempt_at, image_sent, attempt_branded AS branded FROM message_recipients
      WHERE message_id = $1 AND status IS NULL AND attempt_at IS NOT NULL ORDER BY seq`,
    [id],
  )
  return rows.map((u) => ({ ...u, attempt_at: new Date(u.attempt_at).getTime() }))
}

/** The name each customer last had as a bulk recipient of the page sent to (OK), if any, in one statement. */
export async function lastRecipientNames(
  db: Queryable,
  who: readonly { pageId: string; customerId: string }[],
): Promise<(string | undefined)[]> {
  if (who.length === 0) return []
  const rows = await db.query<{ page_id: string; recipient_id: string; name: string }>(
    `SELECT DISTINCT ON (m.page_id, mr.recipient_id) m.page_id, mr.recipient_id, mr.name
       FROM message_recipients mr JOIN messages m ON m.id = mr.message_id
         JOIN unnest($1::text[], $2::text[]) AS w(page_id, customer_id)
           ON mr.recipient_id = w.customer_id AND m.page_id = w.page_id
       WHERE mr.status = 'OK' AND mr.name <> ''
       ORDER BY m.page_id, mr.recipient_id, mr.seq DESC`,
    [who.map((w) => w.pageId), who.map((w) => w.customerId)],
  )
  const names = new Map(rows.map((r) => [`${r.page_id}\u0000${r.recipient_id}`, r.name]))
  return who.map((w) => names.get(`${w.pageId}\u0000${w.customerId}`))
}

/** A message's receipt counts after a watermark moved them. */
export interface ReceiptCountsRow {
  id: number
  user_id: number
  page_id: string
  delivered_count: number
  read_count: number
}

/** A customer whose receipts moved: the newest delivery and read watermarks of a batch (ISO times, or null). */
export interface MovedReceipt {
  pageId: string
  customerId: string
  delivered: string | null
  read: string | null
}

/**
 * Marks the bulk recipients that moved watermarks cover (sent up to `slackSeconds` after one) as delivered,
 * or read and delivered: a read implies a delivery. The messages concerned are locked first, in id order, as
 * every writer of their counts locks them (after the receipts' rows, before the recipients'), so two batches
 * and the touches wait for each other and never deadlock; the messages' counts then move by exactly the
 * recipients that changed, whichever instance gets there first. Answers the new counts of each message that
 * changed.
 */
export async function markBulkReceipts(
  db: Queryable,
  moved: readonly MovedReceipt[],
  slackSeconds: number,
): Promise<ReceiptCountsRow[]> {
  if (moved.length === 0) return []
  const params = [
    moved.map((m) => m.pageId),
    moved.map((m) => m.customerId),
    moved.map((m) => m.delivered),
    moved.map((m) => m.read),
    slackSeconds,
  ]
  // The customers' sends the watermarks cover: a delivery covers up to the newer of both watermarks.
  const covered = `
    SELECT mr.message_id, mr.recipient_id, mr.delivered_at IS NULL AS d,
        (w.read IS NOT NULL AND mr.touched_at <= w.read + make_interval(secs => $5) AND mr.read_at IS NULL) AS r
      FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS w(page_id, customer_id, delivered, read)
      JOIN message_recipients mr ON mr.recipient_id = w.customer_id AND mr.status = 'OK'
      JOIN messages m ON m.id = mr.message_id AND m.page_id = w.page_id
     WHERE mr.touched_at <= GREATEST(w.delivered, w.read) + make_interval(secs => $5)`
  const locked = await db.query<{ id: number }>(
    `SELECT id FROM messages WHERE id IN (SELECT c.message_id FROM (${covered}) c WHERE c.d OR c.r)
      ORDER BY id FOR NO KEY UPDATE`,
    params,
  )
  if (locked.length === 0) return []
  // Read again under the messages' locks: no touch or other batch changes these recipients meanwhile.
  return db.query<ReceiptCountsRow>(
    `WITH c AS MATERIALIZED (SELECT * FROM (${covered}) c WHERE (c.d OR c.r) AND c.message_id = ANY($6::bigint[])),
     marked AS (
       UPDATE message_recipients mr SET delivered_at = COALESCE(mr.delivered_at, now()),
           read_at = CASE WHEN c.r THEN COALESCE(mr.read_at, now()) ELSE mr.read_at END
         FROM c WHERE mr.message_id = c.message_id AND mr.recipient_id = c.recipient_id
     ), counts AS (
       SELECT message_id, count(*) FILTER (WHERE d)::int AS d, count(*) FILTER (WHERE r)::int AS r
         FROM c GROUP BY message_id
     )
     UPDATE messages SET delivered_count = delivered_count + counts.d, read_count = read_count + counts.r
       FROM counts WHERE messages.id = counts.message_id
     RETURNING messages.id, messages.user_id, messages.page_id, messages.delivered_count, messages.read_count`,
    [...params, locked.map((l) => l.id)],
  )
}

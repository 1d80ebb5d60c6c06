/**
 * The `owner_events` log: what the owners' open apps must hear (see core/contracts/events.ts). A row is
 * written per user who hears it, and its id announced with `NOTIFY pagecast_events` in the same transaction,
 * so every instance on the database hears it once it is committed (and never before).
 */
import type { OwnerEventData, OwnerEventType } from '../../core/contracts/events.ts'
import type { Queryable, Store } from '../db/store.ts'

export const EVENTS_CHANNEL = 'pagecast_events'
/** Kept per user: a day, and at most this many rows; a stream resuming from before that is told to refetch. */
export const RETENTION_HOURS = 24
export const RETENTION_ROWS = 10_000

export interface OwnerEventRow {
  id: number
  user_id: number
  type: OwnerEventType
  data: unknown
}

/** The NOTIFY payload: `<event id>:<user id>` pairs, comma-separated. */
export function notifyPayload(rows: readonly { id: number; user_id: number }[]): string {
  return rows.map((r) => `${r.id}:${r.user_id}`).join(',')
}

export function parseNotifyPayload(payload: string): { id: number; userId: string }[] {
  const out: { id: number; userId: string }[] = []
  for (const part of payload.split(',')) {
    const m = /^(\d+):(\d+)$/.exec(part)
    if (m) out.push({ id: Number(m[1]), userId: m[2]! })
  }
  return out
}

/** NOTIFY payloads stay well under PostgreSQL's 8,000 bytes. */
const NOTIFY_BATCH = 300

async function announce(db: Queryable, rows: readonly { id: number; user_id: number }[]): Promise<void> {
  if (rows.length === 0) return
  const payloads: string[] = []
  for (let i = 0; i < rows.length; i += NOTIFY_BATCH)
    payloads.push(notifyPayload(rows.slice(i, i + NOTIFY_BATCH)))
  // One statement for all.
  await db.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [EVENTS_CHANNEL, payloads])
}

/** An event to write for each of its users. */
interface Publication {
  userIds: readonly string[]
  type: OwnerEventType
  data: unknown
}

/**
 * What a transaction taken up in one go publishes: its announcements, sent once, and its pages' owners; with
 * `held`, the events themselves, written together at its end.
 */
interface Batch {
  unannounced: { id: number; user_id: number }[]
  owners: Map<string, string[]>
  held: Publication[] | undefined
}
const batches = new WeakMap<Queryable, Batch>()

/**
 * Runs `fn`, whose writes are all made through `db` (one transaction), announcing the events it publishes
 * together when it is done (a NOTIFY per 300 rather than one per event, all in one statement: every instance
 * reads each NOTIFY) and reading each page's owners once. An announced event that a savepoint rolled back is
 * only never found.
 *
 * With `hold`, the events are also written together when `fn` is done, in the order they were published and
 * in the statement that announces them (so `fn` must not roll back to a savepoint: what it published before
 * would be written all the same).
 */
export async function publishingTogether<T>(
  db: Queryable,
  fn: () => Promise<T>,
  options: { hold?: boolean } = {},
): Promise<T> {
  const batch: Batch = { unannounced: [], owners: new Map(), held: options.hold ? [] : undefined }
  batches.set(db, batch)
  try {
    const result = await fn()
    await announce(db, batch.unannounced)
    if (batch.held) await insertEvents(db, batch.held, { announce: true })
    return result
  } finally {
    batches.delete(db)
  }
}

const INSERT_EVENTS = `INSERT INTO owner_events (user_id, type, data)
  SELECT u, e.type, e.data
  FROM unnest($1::text[], $2::text[], $3::jsonb[]) WITH ORDINALITY AS e(users, type, data, n),
    unnest(string_to_array(e.users, ',')::bigint[]) AS u
  ORDER BY e.n, u RETURNING id, user_id`

/**
 * Writes the events, in one statement, in their order (each event's users by id); answers the rows. With
 * `announce`, the same statement announces them too (payloads as `notifyPayload` writes them, in id order).
 */
async function insertEvents(
  db: Queryable,
  events: readonly Publication[],
  options: { announce?: boolean } = {},
): Promise<{ id: number; user_id: number }[]> {
  const written = events.filter((e) => e.userIds.length > 0)
  if (written.length === 0) return []
  const params = [
    written.map((e) => e.userIds.join(',')),
    written.map((e) => e.type),
    written.map((e) => JSON.stringify(e.data)),
  ]
  if (!options.announce) return db.query<{ id: number; user_id: number }>(INSERT_EVENTS, params)
  await db.query(
    `WITH e AS (${INSERT_EVENTS}),
       parts AS (SELECT id, user_id, (row_number() OVER (ORDER BY id) - 1) / $4 AS part FROM e)
     SELECT pg_notify($5, string_agg(id || ':' || user_id, ',' ORDER BY id)) FROM parts GROUP BY part`,
    [...params, NOTIFY_BATCH, EVENTS_CHANNEL],
  )
  return []
}

/** An event for the given users (held until the end of a `publishingTogether` that holds them). */
export async function publishToUsers<T extends OwnerEventType>(
  db: Queryable,
  userIds: readonly string[],
  type: T,
  data: OwnerEventData<T>,
): Promise<void> {
  if (userIds.length === 0) return
  const batch = batches.get(db)
  if (batch?.held) {
    batch.held.push({ userIds, type, data })
    return
  }
  const rows = await insertEvents(db, [{ userIds, type, data }])
  if (batch) for (const row of rows) batch.unannounced.push(row)
  else await announce(db, rows)
}

/** An event for the given users, written (and announced at its commit) in a transaction of its own. */
export async function publishToUsersNow<T extends OwnerEventType>(
  store: Store,
  userIds: readonly string[],
  type: T,
  data: OwnerEventData<T>,
): Promise<void> {
  await store.transaction((tx) => publishToUsers(tx, userIds, type, data))
}

/** The user's events of the page go, but for the progress of their jobs. */
export async function dropPageEvents(db: Queryable, userId: string, pageId: string): Promise<void> {
  await db.query(
    `DELETE FROM owner_events WHERE user_id = $1 AND data->>'pageId' = $2 AND type <> 'bulk_progress'`,
    [userId, pageId],
  )
}

/**
 * A job's progress for its owner, in a transaction of its own that removes the job's earlier progress events:
 * the newest supersedes them.
 */
export async function replaceJobProgress(
  store: Store,
  userId: string,
  data: OwnerEventData<'bulk_progress'>,
): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.query(
      `DELETE FROM owner_events WHERE user_id = $1 AND type = 'bulk_progress' AND data->>'messageId' = $2`,
      [userId, data.messageId],
    )
    await publishToUsers(tx, [userId], 'bulk_progress', data)
  })
}

/**
 * The users bound to a page (`user_pages`): everyone who hears its events and pushes. A binding the network no
 * longer vouches for (revoked) hears nothing of the page.
 */
export async function pageOwners(db: Queryable, pageId: string): Promise<string[]> {
  const known = batches.get(db)?.owners.get(pageId)
  if (known) return known
  const rows = await db.query<{ user_id: number }>(
    'SELECT user_id FROM user_pages WHERE page_id = $1 AND revoked_at IS NULL',
    [pageId],
  )
  const owners = rows.map((r) => String(r.user_id))
  batches.get(db)?.owners.set(pageId, owners)
  return owners
}

/** An event of a page for every user bound to it; answers who hears it. */
export async function publishToPage<T extends OwnerEventType>(
  db: Queryable,
  pageId: string,
  type: T,
  data: OwnerEventData<T>,
): Promise<string[]> {
  const owners = await pageOwners(db, pageId)
  await publishToUsers(db, owners, type, data)
  return owners
}

export async function eventsByIds(db: Queryable, ids: readonly number[]): Promise<OwnerEventRow[]> {
  if (ids.length === 0) return []
  return db.query<OwnerEventRow>(
    'SELECT id, user_id, type, data FROM owner_events WHERE id = ANY($1::bigint[]) ORDER BY id',
    [ids],
  )
}

export type CatchUp =
  { kind: 'events'; rows: OwnerEventRow[] } | { kind: 'gap'; reason: 'gap' | 'too_many'; resumeFrom: number }

/**
 * A user's events after `since`, oldest first, or a gap: `since` is older than what is kept for the user,
 * beyond the last id ever given (another database), or more than `limit` events behind.
 */
export async function eventsSince(
  db: Queryable,
  userId: string,
  since: number,
  limit: number,
): Promise<CatchUp> {
  const [state] = await db.query<{ floor: number | null; last: number }>(
    `SELECT (SELECT pruned_through FROM owner_event_floors WHERE user_id = $1) AS floor,
       (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM owner_events_id_seq) AS last`,
    [userId],
  )
  const last = Number(state?.last ?? 0)
  if (since > last || (state?.floor != null && since < Number(state.floor)))
    return { kind: 'gap', reason: 'gap', resumeFrom: last }
  const rows = await db.query<OwnerEventRow>(
    `SELECT id, user_id, type, data FROM owner_events WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
    [userId, since, limit + 1],
  )
  if (rows.length > limit) return { kind: 'gap', reason: 'too_many', resumeFrom: last }
  return { kind: 'events', rows }
}

/** The last event id given so far (a stream starting without `since` resumes from here). */
export async function lastEventId(db: Queryable): Promise<number> {
  const [row] = await db.query<{ last: number }>(
    'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS last FROM owner_events_id_seq',
  )
  return Number(row?.last ?? 0)
}

/** Deletes events past the retention, remembering per user up to where (any instance may run it). */
export async function pruneOwnerEvents(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `WITH doomed AS (
       SELECT id FROM owner_events WHERE created_at < now() - make_interval(hours => $1)
       UNION
       SELECT id FROM (
         SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY id DESC) AS rn FROM owner_events
       ) ranked WHERE rn > $2
     ), gone AS (
       DELETE FROM owner_events WHERE id IN (SELECT id FROM doomed) RETURNING user_id, id
     ), floors AS (
       INSERT INTO owner_event_floors (user_id, pruned_through)
         SELECT user_id, max(id) FROM gone GROUP BY user_id
       ON CONFLICT (user_id) DO UPDATE
         SET pruned_through = GREATEST(owner_event_floors.pruned_through, EXCLUDED.pruned_through)
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [RETENTION_HOURS, RETENTION_ROWS],
  )
  return Number(rows[0]?.n ?? 0)
}

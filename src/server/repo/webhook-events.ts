/**
 * The `webhook_events` table: every verified Messenger webhook body, stored before the 200 and taken up
 * after it (webhooks/process.ts), a batch at a time (`FOR UPDATE SKIP LOCKED`, so instances sharing the
 * database never take the same one) and in one transaction with what it changes.
 */
import { createHash } from 'node:crypto'
import type { Queryable, Store } from '../db/store.ts'
import { publishingTogether } from './owner-events.ts'

/** Stores a verified body; answers false when the same bytes were stored before (a replay or a retry). */
export async function storeWebhook(db: Queryable, raw: Buffer): Promise<boolean> {
  const [fresh] = await storeWebhooks(db, [raw])
  return fresh!
}

/** Stores verified bodies in one statement; answers for each whether it is new (a body again is not). */
export async function storeWebhooks(db: Queryable, raws: readonly Buffer[]): Promise<boolean[]> {
  const hashes = raws.map((raw) => createHash('sha256').update(raw).digest('hex'))
  const first = new Map<string, number>()
  hashes.forEach((hash, i) => void (first.has(hash) || first.set(hash, i)))
  const rows = await db.query<{ body_sha256: string }>(
    `INSERT INTO webhook_events (body_sha256, body) SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT (body_sha256) DO NOTHING RETURNING body_sha256`,
    [[...first.keys()], [...first.values()].map((i) => raws[i]!.toString('utf8'))],
  )
  const stored = new Set(rows.map((r) => r.body_sha256))
  return hashes.map((hash, i) => first.get(hash) === i && stored.has(hash))
}

/** Bodies stored in one statement at most. */
const WRITE_BATCH = 500

/**
 * Stores verified bodies as they come, those that arrive while a statement runs together in the next one: a
 * busy page costs a statement (and a commit) per round trip, not per body. Each call answers as storeWebhook.
 */
export function webhookWriter(db: Queryable): (raw: Buffer) => Promise<boolean> {
  let waiting: { raw: Buffer; done: (fresh: boolean) => void; failed: (err: unknown) => void }[] = []
  let writing = false
  const write = async () => {
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, WRITE_BATCH)
        waiting = waiting.slice(WRITE_BATCH)
        try {
          const fresh = await storeWebhooks(
            db,
            batch.map((w) => w.raw),
          )
          batch.forEach((w, i) => w.done(fresh[i]!))
        } catch (err) {
          for (const w of batch) w.failed(err)
        }
      }
    } finally {
      writing = false
    }
  }
  return (raw) =>
    new Promise<boolean>((done, failed) => {
      waiting.push({ raw, done, failed })
      if (writing) return
      writing = true
      queueMicrotask(() => void write())
    })
}

/**
 * Processed bodies are kept a week (a redelivery within it is recognised by its bytes; after it, by its
 * message ids and watermarks); a body set aside after failing is kept for a look by hand.
 */
export async function pruneWebhookEvents(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM webhook_events WHERE processed_at < now() - interval '7 days'`)
}

/**
 * Runs `fn` in a savepoint of the current transaction: what it wrote is kept when it returns, and rolled back
 * alone (the rest of the transaction kept) when it throws; the error is thrown on.
 */
export async function inSavepoint<T>(db: Queryable, name: string, fn: () => Promise<T>): Promise<T> {
  await db.query(`SAVEPOINT ${name}`)
  try {
    const result = await fn()
    await db.query(`RELEASE SAVEPOINT ${name}`)
    return result
  } catch (err) {
    await db.query(`ROLLBACK TO SAVEPOINT ${name}`)
    throw err
  }
}

export interface PendingWebhooksOptions {
  /** A body that failed this often is left aside. */
  maxAttempts: number
  /** Bodies not to take (they failed in this run). */
  skip: ReadonlySet<number>
  /** Bodies taken up in one transaction. */
  batch: number
}

/** A body taken up, and what its `apply` answered. */
type Taken<T> = { id: number; result: T }

/** How the bodies taken up are applied. */
export interface WebhookAppliers<T> {
  /** All the batch's bodies at once, as sets: answers each body's result, in order; may throw for any. */
  all(tx: Queryable, bodies: readonly string[]): Promise<T[]>
  /** One body, each event in a savepoint of its own, so an event the store refuses is left aside alone. */
  one(tx: Queryable, body: string): Promise<T>
}

/**
 * Takes up to `batch` pending bodies in one transaction and applies them: an applied body is marked processed
 * (with the note `noteOf` makes of its result, if any); a body that throws is rolled back alone and has its
 * attempt and error counted, the others are kept. Answers whether there was any, the results of the applied
 * bodies and the failures.
 *
 * The bodies are first applied together (`appliers.all`, no savepoint, the events they publish written in one
 * statement at the end), and only when that throws is the transaction rolled back and the batch applied again
 * body by body, each in a savepoint (`appliers.one`): nearly every batch is taken in a few statements.
 * The appliers must leave nothing outside the transaction (what they would log goes into their results).
 */
export async function processPendingWebhooks<T>(
  store: Store,
  options: PendingWebhooksOptions,
  appliers: WebhookAppliers<T>,
  noteOf: (result: T) => string | null,
): Promise<{ found: boolean; applied: T[]; failures: { id: number; error: string }[] }> {
  let applied: Taken<T>[] | undefined
  try {
    applied = await store.transaction((tx) =>
      publishingTogether(
        tx,
        async () => {
          const rows = await pendingRows(tx, options)
          if (rows.length === 0) return []
          const results = await appliers.all(
            tx,
            rows.map((r) => r.body),
          )
          const taken = rows.map((row, i) => ({ id: row.id, result: results[i]! }))
          await markProcessed(tx, taken, noteOf)
          return taken
        },
        { hold: true },
      ),
    )
  } catch {
    // A body failed (its error is counted below), or the store did (it fails below too).
  }
  if (applied) return { found: applied.length > 0, applied: applied.map((a) => a.result), failures: [] }

  const failures: { id: number; error: string }[] = []
  const taken: Taken<T>[] = []
  const found = await store.transaction((tx) =>
    publishingTogether(tx, async () => {
      const rows = await pendingRows(tx, options)
      for (const row of rows) {
        await tx.query('SAVEPOINT apply')
        try {
          const result = await appliers.one(tx, row.body)
          await tx.query('RELEASE SAVEPOINT apply')
          taken.push({ id: row.id, result })
        } catch (err) {
          await tx.query('ROLLBACK TO SAVEPOINT apply')
          const failure = { id: row.id, error: err instanceof Error ? err.message : String(err) }
          failures.push(failure)
          await tx.query('UPDATE webhook_events SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [
            row.id,
            failure.error.slice(0, 1000),
          ])
        }
      }
      await markProcessed(tx, taken, noteOf)
      return rows.length > 0
    }),
  )
  return { found, applied: taken.map((a) => a.result), failures }
}

function pendingRows(tx: Queryable, options: PendingWebhooksOptions) {
  return tx.query<{ id: number; body: string }>(
    `SELECT id, body FROM webhook_events
     WHERE processed_at IS NULL AND attempts < $1 AND NOT (id = ANY($2::bigint[]))
     ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED`,
    [options.maxAttempts, [...options.skip], options.batch],
  )
}

/** Marks the applied bodies processed, in one statement, each with its note. */
async function markProcessed<T>(
  tx: Queryable,
  taken: readonly Taken<T>[],
  noteOf: (result: T) => string | null,
) {
  if (taken.length === 0) return
  // No note is written as '' (a note is never empty).
  await tx.query(
    `UPDATE webhook_events w SET processed_at = now(), attempts = w.attempts + 1, last_error = NULLIF(d.note, '')
     FROM unnest($1::bigint[], $2::text[]) AS d(id, note) WHERE w.id = d.id`,
    [taken.map((a) => a.id), taken.map((a) => noteOf(a.result)?.slice(0, 1000) ?? '')],
  )
}

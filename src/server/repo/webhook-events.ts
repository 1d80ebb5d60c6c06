/**
 * The `webhook_events` table: every verified Messenger webhook body, stored before the 200 and taken up
 * after it (webhooks/process.ts), one at a time per row (`FOR UPDATE SKIP LOCKED`, so instances sharing the
 * database never take the same one) and in one transaction with what it changes.
 */
import { createHash } from 'node:crypto'
import type { Queryable, Store } from '../db/store.ts'

/** Stores a verified body; answers false when the same bytes were stored before (a replay or a retry). */
export async function storeWebhook(db: Queryable, raw: Buffer): Promise<boolean> {
  const hash = createHash('sha256').update(raw).digest('hex')
  const rows = await db.query(
    `INSERT INTO webhook_events (body_sha256, body) VALUES ($1, $2) ON CONFLICT (body_sha256) DO NOTHING RETURNING id`,
    [hash, raw.toString('utf8')],
  )
  return rows.length > 0
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

/**
 * Takes up to `batch` pending bodies in one transaction and applies each with `apply` in a savepoint of its
 * own: an applied body is marked processed (with the note `noteOf` makes of its result, if any); a body whose
 * `apply` throws is rolled back alone and has its attempt and error counted, the others are kept. Answers
 * whether there was any, the results of the applied bodies and the failures.
 */
export async function processPendingWebhooks<T>(
  store: Store,
  options: PendingWebhooksOptions,
  apply: (tx: Queryable, body: string) => Promise<T>,
  noteOf: (result: T) => string | null,
): Promise<{ found: boolean; applied: T[]; failures: { id: number; error: string }[] }> {
  const applied: T[] = []
  const failures: { id: number; error: string }[] = []
  const found = await store.transaction(async (tx) => {
    const rows = await tx.query<{ id: number; body: string; attempts: number }>(
      `SELECT id, body, attempts FROM webhook_events
       WHERE processed_at IS NULL AND attempts < $1 AND NOT (id = ANY($2::bigint[]))
       ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [options.maxAttempts, [...options.skip], options.batch],
    )
    for (const row of rows) {
      await tx.query('SAVEPOINT apply')
      try {
        const result = await apply(tx, row.body)
        await tx.query('RELEASE SAVEPOINT apply')
        applied.push(result)
        const note = noteOf(result)
        await tx.query(
          `UPDATE webhook_events SET processed_at = now(), attempts = attempts + 1, last_error = $2 WHERE id = $1`,
          [row.id, note?.slice(0, 1000) ?? null],
        )
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
    return rows.length > 0
  })
  return { found, applied, failures }
}

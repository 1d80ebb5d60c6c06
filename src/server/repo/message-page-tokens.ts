/**
 * The `message_page_tokens` table: the page token of a job the server may send, sealed (bulk/token-box.ts),
 * one per job. It is kept while the server sends the job or may take it, and goes when the job ends.
 */
import type { Queryable } from '../db/store.ts'

/** Keeps the job's sealed page token, with the job's owner and page, replacing one kept before. */
export async function keepSealedToken(
  db: Queryable,
  job: { messageId: string; userId: string; pageId: string },
  sealed: Uint8Array,
): Promise<void> {
  await db.query(
    `INSERT INTO message_page_tokens (message_id, user_id, page_id, sealed) VALUES ($1, $2, $3, $4)
       ON CONFLICT (message_id) DO UPDATE SET sealed = EXCLUDED.sealed, created_at = now()`,
    [job.messageId, job.userId, job.pageId, sealed],
  )
}

/** The job's sealed page token, if one is kept. */
export async function sealedToken(db: Queryable, messageId: string): Promise<Uint8Array | undefined> {
  const [row] = await db.query<{ sealed: Uint8Array }>(
    'SELECT sealed FROM message_page_tokens WHERE message_id = $1',
    [messageId],
  )
  return row?.sealed
}

/** The job ended (finished, stopped, cancelled, hidden) or its page was disconnected: its token goes. */
export async function dropToken(db: Queryable, messageId: string): Promise<void> {
  await dropTokens(db, [messageId])
}

/** The tokens of these jobs go. */
export async function dropTokens(db: Queryable, messageIds: readonly string[]): Promise<void> {
  await db.query('DELETE FROM message_page_tokens WHERE message_id = ANY($1::bigint[])', [messageIds])
}

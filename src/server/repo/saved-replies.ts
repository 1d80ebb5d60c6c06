/** The `saved_replies` table: a user's own saved replies, reached by the user only. */
import type { Queryable } from '../db/store.ts'

export interface SavedReplyRow {
  id: number | string
  title: string
  text: string
  updated_at: Date | string
}

const COLUMNS = 'id, title, text, updated_at'

/** The user's saved replies, newest first. */
export async function listSavedReplies(db: Queryable, userId: string): Promise<SavedReplyRow[]> {
  return db.query<SavedReplyRow>(
    `SELECT ${COLUMNS} FROM saved_replies WHERE user_id = $1 ORDER BY updated_at DESC, id DESC`,
    [userId],
  )
}

/**
 * Saves a reply while the user has fewer than `limit`; undefined when the limit is reached. The count and the
 * insert are one statement, so two devices saving at once cannot pass the limit.
 */
export async function insertSavedReply(
  db: Queryable,
  userId: string,
  reply: { title: string; text: string },
  limit: number,
): Promise<SavedReplyRow | undefined> {
  const [row] = await db.query<SavedReplyRow>(
    `INSERT INTO saved_replies (user_id, title, text)
     SELECT $1, $2, $3 WHERE (SELECT count(*) FROM saved_replies WHERE user_id = $1) < $4
     RETURNING ${COLUMNS}`,
    [userId, reply.title, reply.text, limit],
  )
  return row
}

/** Edits the user's saved reply; undefined when the user has none of this id. */
export async function updateSavedReply(
  db: Queryable,
  id: string,
  userId: string,
  reply: { title: string; text: string },
): Promise<SavedReplyRow | undefined> {
  const [row] = await db.query<SavedReplyRow>(
    `UPDATE saved_replies SET title = $3, text = $4, updated_at = now()
     WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
    [id, userId, reply.title, reply.text],
  )
  return row
}

/** Deletes the user's saved reply; answers false when the user has none of this id. */
export async function deleteSavedReply(db: Queryable, id: string, userId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM saved_replies WHERE id = $1 AND user_id = $2 RETURNING id', [
    id,
    userId,
  ])
  return rows.length > 0
}

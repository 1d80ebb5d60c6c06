/** The `terms` table: each published version of the terms, the newest one in force. */
import type { Queryable } from '../db/store.ts'

export interface TermsRow {
  id: number
  content: string
  created_at: Date
}

/** The version in force, or undefined when none has been published. */
export async function latestTerms(db: Queryable): Promise<TermsRow | undefined> {
  const [row] = await db.query<TermsRow>('SELECT id, content, created_at FROM terms ORDER BY id DESC LIMIT 1')
  return row
}

/** Publishes a new version; answers its id and time. */
export async function insertTerms(db: Queryable, content: string): Promise<{ id: number; created_at: Date }> {
  const [row] = await db.query<{ id: number; created_at: Date }>(
    'INSERT INTO terms (content) VALUES ($1) RETURNING id, created_at',
    [content],
  )
  return row!
}

/** Loaded chat messages cached per page and conversation, readable offline. */
import { type CachedMessage, db } from '../../../device/db/db.ts'

export function readCachedHistory(pageId: string, conversationId: string): Promise<CachedMessage[]> {
  return db.messages.where('[pageId+conversationId]').equals([pageId, conversationId]).sortBy('createdAt')
}

export async function storeHistory(rows: readonly CachedMessage[]): Promise<void> {
  if (rows.length > 0) await db.messages.bulkPut([...rows])
}

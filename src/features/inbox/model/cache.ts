/** The per-page conversation cache in Dexie: shown at once on entry, refreshed from the network after. */
import { Dexie } from 'dexie'
import { type CachedConversation, db } from '../../../shared/db/db.ts'
import type { Conversation } from '../../../shared/graph/types.ts'
import { conversationKey, toCachedConversation } from './conversation.ts'

function newestFirst(pageId: string) {
  return db.conversations
    .where('[pageId+updatedAt]')
    .between([pageId, Dexie.minKey], [pageId, Dexie.maxKey])
    .reverse()
}

/** The newest rows only: enough to paint the first screen before the whole list is read. */
export function readFirstConversations(pageId: string, limit: number): Promise<CachedConversation[]> {
  return newestFirst(pageId).limit(limit).toArray()
}

export function readAllConversations(pageId: string): Promise<CachedConversation[]> {
  return newestFirst(pageId).toArray()
}

/** Upserts a page of conversations, keeping what earlier reads learnt about the customer's last message. */
export async function storeConversations(
  pageId: string,
  page: readonly Conversation[],
): Promise<CachedConversation[]> {
  return db.transaction('rw', db.conversations, async () => {
    const previous = await db.conversations.bulkGet(page.map((c) => conversationKey(pageId, c.id)))
    const rows = page.map((c, i) => toCachedConversation(pageId, c, previous[i]))
    await db.conversations.bulkPut(rows)
    return rows
  })
}

export async function setLastCustomerMessageAt(
  pageId: string,
  conversationId: string,
  at: number | undefined,
): Promise<void> {
  if (at === undefined) return
  await db.conversations.update(conversationKey(pageId, conversationId), { lastCustomerMessageAt: at })
}

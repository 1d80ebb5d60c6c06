/**
 * The wizard's audience from what this device already holds: once a sync of the page's conversations reached
 * the end of the list (`whole`), every conversation is in the cache and kept current by the live stream, so
 * the audience is read from it in one query instead of a second walk of the network.
 */
import { db, type CachedConversation } from '../../../device/db/db.ts'
import type { BulkCustomer } from './load-recipients.ts'

/** A cached conversation as a bulk recipient, or undefined when the page cannot reply to it. */
export function cachedCustomer(c: CachedConversation): BulkCustomer | undefined {
  if (!c.canReply || !c.customerId) return undefined
  return {
    recipientId: c.customerId,
    name: c.customerName,
    conversationId: c.id,
    lastCustomerMessageAt: c.lastCustomerMessageAt,
    updatedAt: c.updatedAt,
  }
}

/** Every customer of the page the page can reply to, newest first; undefined while the cache is not whole. */
export async function syncedAudience(pageId: string): Promise<BulkCustomer[] | undefined> {
  const sync = await db.inboxSync.get(pageId)
  if (!sync?.whole) return undefined
  const rows = await db.conversations
    .where('[pageId+updatedAt]')
    .between([pageId, -Infinity], [pageId, Infinity])
    .reverse()
    .toArray()
  const seen = new Set<string>()
  const customers: BulkCustomer[] = []
  for (const row of rows) {
    const c = cachedCustomer(row)
    if (!c || seen.has(c.recipientId)) continue
    seen.add(c.recipientId)
    customers.push(c)
  }
  return customers
}

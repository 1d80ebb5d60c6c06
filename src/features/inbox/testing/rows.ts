/** Cached conversations for the list's component tests: `Customer 0` the newest, a minute apart. */
import type { CachedConversation } from '../../../device/db/db.ts'

export function cachedRows(count: number): CachedConversation[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `p:${i}`,
    pageId: 'p',
    id: `t_${i}`,
    updatedAt: 1_700_000_000_000 - i * 60_000,
    customerId: `u${i}`,
    customerName: `Customer ${i}`,
    snippet: 'Hello',
    unreadCount: 0,
    canReply: true,
  }))
}

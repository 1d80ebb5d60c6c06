/**
 * Unread counts that stay right when the network's conversation list and the live stream race: a list read
 * records which messages its unread_count covers, and a live customer message is counted on this device only
 * when that list does not cover it (src/features/live counts, src/features/inbox stores the list).
 */
import type { CachedConversation } from '../../device/db/db.ts'
import type { Conversation } from '../../core/graph/types.ts'

/** The messages a list read covers: those it nested, and everything older than the oldest of them. */
export function listedOf(conv: Conversation, updatedAt: number): NonNullable<CachedConversation['listed']> {
  const nested = (conv.messages?.data ?? []).filter((m) => m.id)
  const times = nested.map((m) => Date.parse(m.created_time)).filter(Number.isFinite)
  return {
    ids: nested.map((m) => m.id),
    from: times.length ? Math.min(...times) : updatedAt,
  }
}

/**
 * A message is in the network's count as last read: it was listed, or it is older than what was listed. The
 * list's times are whole seconds; a message in the same second as the oldest listed one and not listed is
 * taken as newer.
 */
export function coveredByList(listed: CachedConversation['listed'], id: string, at: number): boolean {
  if (!listed) return false
  return listed.ids.includes(id) || at < listed.from
}

/** What this device knows of a page's unread messages. */
export interface LocalUnread {
  /** The sum over the page's cached conversations. */
  cached: number
  /** Every conversation of the page is in the cache (its sync reached the end once). */
  whole: boolean
}

/**
 * The page's one unread count, the same on its home card and in its inbox: the cache's sum once the cache
 * holds the whole page (the live stream and the chats opened keep it current); before that, the network's
 * count from the accounts list, or the cache's sum when it already knows more.
 */
export function pageUnread(local: LocalUnread | undefined, network: number | undefined): number {
  if (local?.whole) return local.cached
  return Math.max(local?.cached ?? 0, network ?? 0)
}

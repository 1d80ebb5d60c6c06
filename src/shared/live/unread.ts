/**
 * Unread counts that stay right when the network's conversation list and the live stream race: a list read
 * records which messages its unread_count covers, and a live customer message is counted on this device only
 * when that list does not cover it (src/features/live counts, src/features/inbox stores the list).
 */
import type { CachedConversation } from '../db/db.ts'
import type { Conversation } from '../graph/types.ts'

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

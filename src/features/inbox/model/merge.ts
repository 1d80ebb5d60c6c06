/** Merges freshly loaded rows into the shown list: newest first, one row per conversation. */
import type { CachedConversation } from '../../../device/db/db.ts'

export function mergeConversations(
  current: readonly CachedConversation[],
  incoming: readonly CachedConversation[],
): CachedConversation[] {
  if (incoming.length === 0) return current as CachedConversation[]
  const byKey = new Map<string, CachedConversation>()
  for (const row of current) byKey.set(row.key, row)
  for (const row of incoming) byKey.set(row.key, row)
  return [...byKey.values()].sort((a, b) => b.updatedAt - a.updatedAt)
}

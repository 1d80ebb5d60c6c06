/** Mapping of Graph messages to cached rows, and what the history tells about the messaging window. */
import type { CachedMessage } from '../../../device/db/db.ts'
import type { ChatMessage } from '../../../core/graph/types.ts'

export function toCachedMessage(pageId: string, conversationId: string, m: ChatMessage): CachedMessage {
  const images = (m.attachments?.data ?? []).flatMap((a) => (a.image_data?.url ? [a.image_data.url] : []))
  return {
    key: `${pageId}:${m.id}`,
    pageId,
    conversationId,
    id: m.id,
    createdAt: Date.parse(m.created_time) || 0,
    fromId: m.from?.id ?? '',
    fromName: m.from?.name ?? '',
    toId: m.to?.data?.[0]?.id ?? '',
    text: m.message ?? '',
    imageUrls: images,
  }
}

/** The window rule lives in the messaging policy; the chat reads its history through it. */
export { lastCustomerMessageAt } from '../../../core/policy/window.ts'

/** Oldest first, one row per message id. */
export function mergeHistory(a: readonly CachedMessage[], b: readonly CachedMessage[]): CachedMessage[] {
  const byId = new Map<string, CachedMessage>()
  for (const m of a) byId.set(m.id, m)
  for (const m of b) byId.set(m.id, m)
  return [...byId.values()].sort((x, y) => x.createdAt - y.createdAt || x.id.localeCompare(y.id))
}

/** Mapping of Graph messages to cached rows, and what the history tells about the messaging window. */
import type { CachedMessage } from '../../../shared/db/db.ts'
import type { ChatMessage } from '../../../shared/graph/types.ts'

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

/** The newest message the customer (anyone but the page) sent, as ms since epoch; undefined when none. */
export function lastCustomerMessageAt(
  pageId: string,
  messages: readonly Pick<CachedMessage, 'fromId' | 'createdAt'>[],
): number | undefined {
  let latest: number | undefined
  for (const m of messages) {
    if (m.fromId && m.fromId !== pageId && (latest === undefined || m.createdAt > latest))
      latest = m.createdAt
  }
  return latest
}

/** Oldest first, one row per message id. */
export function mergeHistory(a: readonly CachedMessage[], b: readonly CachedMessage[]): CachedMessage[] {
  const byId = new Map<string, CachedMessage>()
  for (const m of a) byId.set(m.id, m)
  for (const m of b) byId.set(m.id, m)
  return [...byId.values()].sort((x, y) => x.createdAt - y.createdAt || x.id.localeCompare(y.id))
}

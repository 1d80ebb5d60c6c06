/**
 * An uncertain send (a crash after the write-ahead `sending`, or a request whose answer never came) is checked
 * against the conversation before any retry, so nobody receives the message twice.
 */
import { arrival, type Arrival, type SeenMessage } from '../graph/delivery.ts'
import type { ChatMessage } from '../graph/types.ts'
import type { SenderGraph } from './ports.ts'

export type Evidence = Arrival

const seen = (m: ChatMessage): SeenMessage => ({
  id: m.id,
  fromId: m.from?.id,
  createdAt: Date.parse(m.created_time),
  text: m.message,
  hasImage: (m.attachments?.data.length ?? 0) > 0,
})

export function findEvidence(
  messages: readonly ChatMessage[],
  pageId: string,
  text: string,
  attemptAt: number,
): Evidence {
  return arrival(messages.map(seen), pageId, text, attemptAt)
}

/** Reads the latest messages of the conversation (rejects with the Graph error, e.g. `network`). */
export async function reconcile(
  graph: SenderGraph,
  pageId: string,
  pageToken: string,
  conversationId: string,
  text: string,
  attemptAt: number,
): Promise<Evidence> {
  const page = await graph.messages(conversationId, pageToken, { limit: 10 })
  return findEvidence(page.data, pageId, text, attemptAt)
}

/**
 * An uncertain send (a crash after the write-ahead `sending`, or a request whose answer never came) is checked
 * against the conversation before any retry, so nobody receives the message twice.
 */
import type { ChatMessage } from '../shared/graph/types.ts'
import type { SenderGraph } from '../shared/bulk/ports.ts'

/** Browser and network clocks differ; a message this much before the attempt still counts as ours. */
export const CLOCK_SKEW_MS = 2 * 60_000

export interface Evidence {
  textSent: boolean
  imageSent: boolean
}

export function findEvidence(
  messages: readonly ChatMessage[],
  pageId: string,
  text: string,
  attemptAt: number,
): Evidence {
  const since = attemptAt - CLOCK_SKEW_MS
  const ours = messages.filter((m) => m.from?.id === pageId && Date.parse(m.created_time) >= since)
  return {
    textSent: ours.some((m) => m.message === text),
    imageSent: ours.some((m) => (m.attachments?.data.length ?? 0) > 0),
  }
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

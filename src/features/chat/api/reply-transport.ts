/** The outbox's way out: Graph sends tagged by the messaging window at the moment of sending. */
import type { GraphClient } from '../../../core/graph/types.ts'
import type { WindowStatus } from '../../../core/policy/window.ts'
import type { OutboxTransport, ReplyEntry } from '../model/outbox.ts'
import { toCachedMessage } from '../model/message.ts'

export class OutsideWindowError extends Error {
  readonly kind = 'outside_window'
}

export interface TransportDeps {
  pageId: string
  graph: GraphClient
  withToken: <T>(call: (token: string) => Promise<T>) => Promise<T>
  /** The window for a conversation now (the composer's own rule, applied again at send time). */
  windowFor: (conversationId: string) => Promise<WindowStatus>
  /** Refusal text when the window is shut (localised by the caller). */
  refusal: (status: WindowStatus) => string
}

export function replyTransport(d: TransportDeps): OutboxTransport {
  return {
    pageId: d.pageId,
    async send(entry: ReplyEntry, part) {
      const status = await d.windowFor(entry.conversationId)
      if (!status.canSend || !status.messagingType) throw new OutsideWindowError(d.refusal(status))
      const base = { recipientId: entry.recipientId, messagingType: status.messagingType, tag: status.tag }
      const req =
        'text' in part
          ? { ...base, text: part.text }
          : { ...base, attachment: { url: part.imageUrl, isReusable: true } }
      await d.withToken((token) => d.graph.send(d.pageId, token, req))
    },
    async latestMessages(conversationId) {
      const page = await d.withToken((token) => d.graph.messages(conversationId, token, { limit: 10 }))
      return page.data.map((m) => toCachedMessage(d.pageId, conversationId, m))
    },
  }
}

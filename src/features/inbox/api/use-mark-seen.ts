/**
 * The conversation on screen is read: its unread count is cleared in the cache at once (the list, the page's
 * sidebar and the home cards follow) and the network is told with the Send API's `mark_seen` sender action.
 * Runs again whenever the shown conversation gains unread messages (a live message while it is open).
 */
import { useEffect } from 'react'
import type { GraphClient } from '../../../shared/graph/types.ts'
import { markConversationSeen } from '../model/unread.ts'

export interface MarkSeenSource {
  pageId: string
  graph: GraphClient
  withToken: <T>(call: (token: string) => Promise<T>) => Promise<T>
  /** The conversation shown in the chat pane, if any. */
  conversation: { id: string; customerId: string; unreadCount: number } | undefined
}

export function useMarkSeen({ pageId, graph, withToken, conversation }: MarkSeenSource): void {
  const id = conversation?.id
  const customerId = conversation?.customerId
  const unread = conversation?.unreadCount ?? 0
  useEffect(() => {
    if (!id || !customerId || unread === 0) return
    void markConversationSeen(pageId, id).catch((err: unknown) =>
      console.error('the conversation could not be marked read here', err),
    )
    // Offline, or refused: the cache keeps it read (seenAt); the network is told the next time it is opened.
    void withToken((token) => graph.markSeen(token, customerId)).catch(() => undefined)
  }, [pageId, graph, withToken, id, customerId, unread])
}

/**
 * The conversation on screen is read: its unread count is cleared in the cache at once (the list, the page's
 * sidebar and the home cards follow) and the network is told with the Send API's `mark_seen` sender action.
 * Runs again whenever the shown conversation gains unread messages (a live message while it is open). A
 * mark_seen that could not be sent (offline, a failure) is sent again once the page has a token.
 */
import { useEffect } from 'react'
import type { GraphClient } from '../../../core/graph/types.ts'
import { sessionStore } from '../../../shared/session/store.ts'
import { markConversationSeen, markSeenDelivered, pendingSeen } from '../model/unread.ts'

export interface MarkSeenSource {
  pageId: string
  graph: GraphClient
  withToken: <T>(call: (token: string) => Promise<T>) => Promise<T>
  /** The conversation shown in the chat pane, if any. */
  conversation: { id: string; customerId: string; unreadCount: number } | undefined
  /** The page's token is there (set again after a reconnect): pending mark_seen actions go then. */
  ready: boolean
}

export function useMarkSeen({ pageId, graph, withToken, conversation, ready }: MarkSeenSource): void {
  const id = conversation?.id
  const customerId = conversation?.customerId
  const unread = conversation?.unreadCount ?? 0
  useEffect(() => {
    if (!id || !customerId || unread === 0) return
    void (async () => {
      await markConversationSeen(pageId, id)
      lowerNetworkUnread(pageId, unread)
      await sendSeen(pageId, graph, withToken, { id, customerId })
    })().catch((err: unknown) => console.error('the conversation could not be marked read here', err))
  }, [pageId, graph, withToken, id, customerId, unread])

  useEffect(() => {
    if (!ready) return
    void (async () => {
      for (const conv of await pendingSeen(pageId)) await sendSeen(pageId, graph, withToken, conv)
    })().catch(() => undefined)
  }, [pageId, graph, withToken, ready])
}

/**
 * The page's count as the network last gave it (the accounts list) loses the conversation's unread messages
 * too: while only part of the page is on this device that count is the page's, and a list read again after a
 * live message (which the network counted) would otherwise keep the messages just read until its next read.
 */
function lowerNetworkUnread(pageId: string, by: number): void {
  sessionStore.setState((s) => ({
    accounts: s.accounts.map((a) =>
      a.id === pageId && a.unread_message_count
        ? { ...a, unread_message_count: Math.max(0, a.unread_message_count - by) }
        : a,
    ),
  }))
}

/** Sends one mark_seen; kept pending when it does not go through (the cache keeps it read meanwhile). */
async function sendSeen(
  pageId: string,
  graph: GraphClient,
  withToken: MarkSeenSource['withToken'],
  conv: { id: string; customerId: string },
): Promise<void> {
  try {
    await withToken((token) => graph.markSeen(token, conv.customerId))
  } catch {
    return
  }
  await markSeenDelivered(pageId, conv.id)
}

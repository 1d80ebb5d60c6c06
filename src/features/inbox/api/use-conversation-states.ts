/**
 * The page's needs-reply states: read from the server when the page is entered (and after a gap in the live
 * stream) into the local database, then kept current by the stream's `conversation_state` events; the list
 * reads them from the local database, online or offline.
 */
import { useCallback, useEffect, useRef } from 'react'
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import {
  deleteConversationDone,
  fetchConversationStates,
  postConversationDone,
  postConversationSeen,
  postReplying,
} from '../../../shared/api/conversation-states.ts'
import { REPLYING_EVERY_MS } from '../../../core/contracts/conversation-states.ts'
import type { ConversationState } from '../../../core/contracts/conversation-states.ts'
import { onLiveChange } from '../../../shared/live/changes.ts'
import { storePageStates, storeState, usePageStates } from '../../../shared/live/conversation-states.ts'
import { notify } from '../../../shared/notifications/store.ts'

export interface ConversationStates {
  states: ReadonlyMap<string, ConversationState> | undefined
  /** Marks it done for everyone; its notice offers to take it back. */
  markDone: (customerId: string) => Promise<void>
  /** A person opened the chat: the state's unread count is cleared for everyone. */
  markSeen: (customerId: string) => void
  /** The reply box changed: the page's other people hear it, at most every few seconds. */
  typing: (customerId: string) => void
}

export function useConversationStates(pageId: string, ready: boolean): ConversationStates {
  const states = usePageStates(pageId)
  useEffect(() => {
    if (!ready) return
    let stale = false
    const load = () =>
      void fetchConversationStates(pageId)
        .then((list) => (stale ? undefined : storePageStates(pageId, list)))
        .catch((err: unknown) => console.error('the needs-reply states could not be read', err))
    load()
    const off = onLiveChange((c) => {
      if (c.type === 'refetch' && (c.pageId === undefined || c.pageId === pageId)) load()
    })
    return () => {
      stale = true
      off()
    }
  }, [pageId, ready])

  const markDone = useCallback(
    async (customerId: string) => {
      const state = await postConversationDone(pageId, customerId)
      if (!state) return
      await storeState(state)
      // Taken back from its notice, while nothing newer happened in the conversation.
      notify({
        kind: 'success',
        title: i18n._(msg`Marked as done`),
        action: {
          label: i18n._(msg`Undo`),
          onClick: () =>
            void deleteConversationDone(pageId, customerId)
              .then((restored) => (restored ? storeState(restored) : undefined))
              .catch(() => undefined),
        },
      })
    },
    [pageId],
  )
  const markSeen = useCallback(
    (customerId: string) =>
      void postConversationSeen(pageId, customerId)
        .then((state) => (state ? storeState(state) : undefined))
        .catch(() => undefined),
    [pageId],
  )
  const lastTyping = useRef(new Map<string, number>())
  const typing = useCallback(
    (customerId: string) => {
      const now = Date.now()
      if (now - (lastTyping.current.get(customerId) ?? 0) < REPLYING_EVERY_MS) return
      lastTyping.current.set(customerId, now)
      void postReplying(pageId, customerId).catch(() => undefined)
    },
    [pageId],
  )
  return { states, markDone, markSeen, typing }
}

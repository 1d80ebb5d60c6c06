/**
 * One conversation's history, oldest first: the cached messages at once, then the newest page from the
 * network; older pages on demand (the Graph returns newest first and pages backwards with `after`).
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { CachedMessage } from '../../../shared/db/db.ts'
import type { GraphClient } from '../../../shared/graph/types.ts'
import { PAGE_SIZE_MESSAGES } from '../../../shared/constants/limits.ts'
import { onLiveChange } from '../../../shared/live/changes.ts'
import { readCachedHistory, storeHistory } from '../model/history-cache.ts'
import { lastCustomerMessageAt, mergeHistory, toCachedMessage } from '../model/message.ts'

export interface HistorySource {
  pageId: string
  conversationId: string
  graph: GraphClient
  pageToken: string | undefined
  /** Runs a Graph call, refreshing an expired page token once. */
  withToken: <T>(call: (token: string) => Promise<T>) => Promise<T>
  /** Told the exact time of the customer's last message whenever the newest page is read. */
  onCustomerMessageAt?: (at: number | undefined) => void
}

export interface HistoryState {
  messages: readonly CachedMessage[]
  loading: boolean
  loadingOlder: boolean
  /** No older page on the network. */
  complete: boolean
  /** The newest page was read from the network in this visit (not only the cache). */
  fresh: boolean
  /** Time of the customer's latest message, from the messages known here. */
  customerMessageAt: number | undefined
  loadOlder: () => Promise<void>
  reload: () => Promise<void>
}

export function useHistory(src: HistorySource): HistoryState {
  const { pageId, conversationId, graph, pageToken, withToken, onCustomerMessageAt } = src
  const [messages, setMessages] = useState<readonly CachedMessage[]>([])
  const [loading, setLoading] = useState(true)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const [complete, setComplete] = useState(false)
  const [fresh, setFresh] = useState(false)
  const older = useRef<{ after?: string; busy: boolean }>({ busy: false })
  const notify = useRef(onCustomerMessageAt)
  useEffect(() => {
    notify.current = onCustomerMessageAt
  }, [onCustomerMessageAt])

  useEffect(() => {
    // The caller keys the chat by conversation, so state starts empty for each one.
    let live = true
    void readCachedHistory(pageId, conversationId).then((cached) => {
      if (live && cached.length > 0) setMessages((shown) => mergeHistory(cached, shown))
    })
    return () => {
      live = false
    }
  }, [pageId, conversationId])

  const reload = useCallback(async () => {
    if (!pageToken) return
    try {
      const page = await withToken((token) =>
        graph.messages(conversationId, token, { limit: PAGE_SIZE_MESSAGES }),
      )
      const rows = page.data.map((m) => toCachedMessage(pageId, conversationId, m))
      await storeHistory(rows)
      if (!older.current.after)
        older.current.after = page.paging?.next ? page.paging.cursors?.after : undefined
      if (!page.paging?.next) setComplete(true)
      setMessages((shown) => mergeHistory(shown, rows))
      setFresh(true)
      notify.current?.(lastCustomerMessageAt(pageId, rows))
    } catch {
      // Offline or refused: the cached history stays on screen.
    } finally {
      setLoading(false)
    }
  }, [graph, pageId, conversationId, pageToken, withToken])

  useEffect(() => {
    // The newest page is read after the cached history is on screen.
    if (pageToken) queueMicrotask(() => void reload())
  }, [pageToken, reload])

  // A message the live stream wrote to this conversation's cache joins the history at once; after a gap in
  // the stream the newest page is read again.
  useEffect(
    () =>
      onLiveChange((change) => {
        if (change.type === 'message' && change.pageId === pageId && change.conversationId === conversationId)
          setMessages((shown) => mergeHistory(shown, [change.row]))
        else if (change.type === 'refetch' && (change.pageId === undefined || change.pageId === pageId))
          void reload()
      }),
    [pageId, conversationId, reload],
  )

  const loadOlder = useCallback(async () => {
    const o = older.current
    if (!pageToken || o.busy || !o.after) return
    o.busy = true
    setLoadingOlder(true)
    try {
      const page = await withToken((token) =>
        graph.messages(conversationId, token, { limit: PAGE_SIZE_MESSAGES, after: o.after }),
      )
      const rows = page.data.map((m) => toCachedMessage(pageId, conversationId, m))
      await storeHistory(rows)
      o.after = page.paging?.next ? page.paging.cursors?.after : undefined
      if (!o.after) setComplete(true)
      setMessages((shown) => mergeHistory(shown, rows))
    } catch {
      // Tried again on the next scroll to the top.
    } finally {
      o.busy = false
      setLoadingOlder(false)
    }
  }, [graph, pageId, conversationId, pageToken, withToken])

  const customerMessageAt = lastCustomerMessageAt(pageId, messages)
  return {
    messages,
    loading: loading && !!pageToken,
    loadingOlder,
    complete,
    fresh,
    customerMessageAt,
    loadOlder,
    reload,
  }
}

/**
 * The conversation list of one page: the Dexie cache first (the newest rows at once, then the rest), then the
 * network, page by page as the end of the list comes into view. Network rows are written to the cache.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { CachedConversation } from '../../../shared/db/db.ts'
import type { GraphClient } from '../../../shared/graph/types.ts'
import { PAGE_SIZE_CONVERSATIONS } from '../../../shared/constants/limits.ts'
import { onLiveChange } from '../../../shared/live/changes.ts'
import { readAllConversations, readFirstConversations, storeConversations } from '../model/cache.ts'
import { mergeConversations } from '../model/merge.ts'
import { withFreshToken } from './with-fresh-token.ts'

/** Rows read before the whole cache, enough for the first screen. */
const FIRST_PAINT_ROWS = 40

export interface ConversationListSource {
  pageId: string
  graph: GraphClient
  /** Undefined while the page is being entered, or offline after a reload. */
  pageToken: string | undefined
  refreshToken: () => Promise<string>
}

export interface ConversationListState {
  rows: readonly CachedConversation[]
  /** Nothing shown yet: neither cache nor network answered. */
  initialising: boolean
  loading: boolean
  /** The network said there is no further page. */
  exhausted: boolean
  error?: unknown
  loadMore: () => void
}

export function useConversationList({
  pageId,
  graph,
  pageToken,
  refreshToken,
}: ConversationListSource): ConversationListState {
  const [rows, setRows] = useState<readonly CachedConversation[]>([])
  const [initialising, setInitialising] = useState(true)
  const [loading, setLoading] = useState(false)
  const [exhausted, setExhausted] = useState(false)
  const [error, setError] = useState<unknown>()
  const cursor = useRef<{ after?: string; started: boolean; busy: boolean }>({ started: false, busy: false })

  useEffect(() => {
    // The caller keys the inbox by page, so state starts empty for each page.
    let live = true
    void (async () => {
      const first = await readFirstConversations(pageId, FIRST_PAINT_ROWS)
      if (!live) return
      if (first.length > 0) {
        setRows(first)
        setInitialising(false)
      }
      const all = await readAllConversations(pageId)
      if (live && all.length > first.length) setRows((shown) => mergeConversations(all, shown))
    })()
    return () => {
      live = false
    }
  }, [pageId])

  const fetchPage = useCallback(async () => {
    const c = cursor.current
    if (!pageToken || c.busy || (c.started && !c.after)) return
    c.busy = true
    setLoading(true)
    try {
      const page = await withFreshToken(pageToken, refreshToken, (token) =>
        graph.conversations(pageId, token, { limit: PAGE_SIZE_CONVERSATIONS, after: c.after }),
      )
      const stored = await storeConversations(pageId, page.data)
      c.started = true
      c.after = page.paging?.next ? page.paging.cursors?.after : undefined
      setRows((shown) => mergeConversations(shown, stored))
      setExhausted(!c.after)
      setError(undefined)
    } catch (err) {
      setError(err)
    } finally {
      c.busy = false
      setLoading(false)
      setInitialising(false)
    }
  }, [graph, pageId, pageToken, refreshToken])

  // The first network page as soon as a token is there (also after coming back online).
  useEffect(() => {
    if (pageToken && !cursor.current.started) void fetchPage()
  }, [pageToken, fetchPage])

  // The newest page again, merged into what is shown, without moving the cursor of the older pages.
  const refreshFirst = useCallback(async () => {
    if (!pageToken) return
    try {
      const page = await withFreshToken(pageToken, refreshToken, (token) =>
        graph.conversations(pageId, token, { limit: PAGE_SIZE_CONVERSATIONS }),
      )
      const stored = await storeConversations(pageId, page.data)
      setRows((shown) => mergeConversations(shown, stored))
    } catch {
      // The next live change or reload tries again.
    }
  }, [graph, pageId, pageToken, refreshToken])

  // The live stream updated a row in the cache (it moves to its place at once), or asks for the list again
  // (a conversation this device has not cached, or a gap in the stream).
  useEffect(
    () =>
      onLiveChange((change) => {
        if (change.pageId !== undefined && change.pageId !== pageId) return
        if (change.type === 'conversation') setRows((shown) => mergeConversations(shown, [change.row]))
        else if (change.type === 'refetch') void refreshFirst()
      }),
    [pageId, refreshFirst],
  )

  // A page that failed offline is tried again when the connection returns.
  useEffect(() => {
    if (!error) return
    const retry = () => void fetchPage()
    window.addEventListener('online', retry)
    return () => window.removeEventListener('online', retry)
  }, [error, fetchPage])

  return { rows, initialising, loading, exhausted, error, loadMore: fetchPage }
}

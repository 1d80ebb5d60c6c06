/**
 * One conversation's history, oldest first, through TanStack Query with Dexie as the offline store under it.
 *
 * - The network pages live in one infinite query under `historyKey(pageId, conversationId)`, i.e.
 *   `['history', pageId, conversationId]`: the first page is the newest (the Graph returns newest first and
 *   pages backwards with `after`), each next page is older. It refetches when the window regains focus and
 *   when the connection returns.
 * - Every page read is written to Dexie (`db.messages`), and what is shown is the Dexie rows of the
 *   conversation merged with the query's pages: the cache is on screen at once (offline too), the network
 *   refines it.
 *
 * A new message from elsewhere (a live stream, a push) is shown by writing its row to `db.messages` (it appears
 * at once) and invalidating `historyKey(pageId, conversationId)` (the newest page is read again).
 */
import { historyKey } from './keys.ts'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import { type InfiniteData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { useLiveQuery } from 'dexie-react-hooks'
import type { CachedMessage } from '../../../device/db/db.ts'
import type { GraphClient } from '../../../core/graph/types.ts'
import { PAGE_SIZE_MESSAGES } from '../../../core/constants/limits.ts'
import { readCachedHistory, storeHistory } from '../model/history-cache.ts'
import { lastCustomerMessageAt, mergeHistory, toCachedMessage } from '../model/message.ts'

export { historyKey }

export interface HistoryPage {
  /** This page's messages as cached rows. */
  rows: CachedMessage[]
  /** The cursor of the next (older) page; undefined on the oldest. */
  after: string | undefined
}

export type HistoryData = InfiniteData<HistoryPage, string | undefined>

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
  /** The newest page was read from the network (not only the cache). */
  fresh: boolean
  /** Time of the customer's latest message, from the messages known here. */
  customerMessageAt: number | undefined
  loadOlder: () => Promise<void>
  /** Reads the newest page again (after a reply was delivered), leaving the older pages as they are. */
  reload: () => Promise<void>
}

const NO_ROWS: CachedMessage[] = []

/** One page of the history from the network, written to the offline store before it is returned. */
export async function fetchHistoryPage(
  src: Pick<HistorySource, 'pageId' | 'conversationId' | 'graph' | 'withToken'>,
  after: string | undefined,
): Promise<HistoryPage> {
  const { pageId, conversationId, graph, withToken } = src
  const page = await withToken((token) =>
    graph.messages(conversationId, token, { limit: PAGE_SIZE_MESSAGES, ...(after ? { after } : {}) }),
  )
  const rows = page.data.map((m) => toCachedMessage(pageId, conversationId, m))
  await storeHistory(rows)
  return { rows, after: page.paging?.next ? page.paging.cursors?.after : undefined }
}

export function useHistory(src: HistorySource): HistoryState {
  const { pageId, conversationId, graph, pageToken, withToken, onCustomerMessageAt } = src
  const queryClient = useQueryClient()
  const key = useMemo(() => historyKey(pageId, conversationId), [pageId, conversationId])
  const source = useMemo(
    () => ({ pageId, conversationId, graph, withToken }),
    [pageId, conversationId, graph, withToken],
  )

  const cached = useLiveQuery(() => readCachedHistory(pageId, conversationId), [pageId, conversationId])

  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => fetchHistoryPage(source, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.after,
    // Offline after a reload there is no page token: the cached history stays on screen until one comes.
    enabled: !!pageToken,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
  })

  const pages = query.data?.pages
  const messages = useMemo(
    () => mergeHistory(cached ?? NO_ROWS, pages?.flatMap((p) => p.rows) ?? NO_ROWS),
    [cached, pages],
  )

  const notify = useRef(onCustomerMessageAt)
  useEffect(() => {
    notify.current = onCustomerMessageAt
  }, [onCustomerMessageAt])
  const newest = pages?.[0]
  useEffect(() => {
    if (newest) notify.current?.(lastCustomerMessageAt(pageId, newest.rows))
  }, [newest, pageId])

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query
  const loadOlder = useCallback(async () => {
    if (!pageToken || !hasNextPage || isFetchingNextPage) return
    // A failure is kept in the query's state; the next scroll to the top tries again.
    await fetchNextPage({ cancelRefetch: false })
  }, [pageToken, hasNextPage, isFetchingNextPage, fetchNextPage])

  const reload = useCallback(async () => {
    if (!pageToken) return
    try {
      const first = await fetchHistoryPage(source, undefined)
      queryClient.setQueryData<HistoryData>(key, (data) =>
        data
          ? { ...data, pages: [first, ...data.pages.slice(1)] }
          : { pages: [first], pageParams: [undefined] },
      )
    } catch {
      // Offline or refused: the history on screen stays.
    }
  }, [pageToken, source, queryClient, key])

  return {
    messages,
    loading: query.isPending && !!pageToken,
    loadingOlder: isFetchingNextPage,
    complete: query.isSuccess && !hasNextPage,
    fresh: query.isSuccess,
    customerMessageAt: lastCustomerMessageAt(pageId, messages),
    loadOlder,
    reload,
  }
}

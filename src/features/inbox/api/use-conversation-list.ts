/**
 * The conversation list of one page. What it shows is the Dexie cache (the newest rows at once, then the
 * rest, then every change): offline after a reload it is all there is. Under it TanStack Query reads the
 * network's pages from the head (`useInfiniteQuery`: the next page as the end of the list comes into view,
 * all loaded pages again on focus, on reconnect and on refresh) and writes them to the cache; beside it the
 * background sync (model/sync.ts) reads the rest of the page's conversations into the cache, so the filter
 * searches all of them.
 */
import { conversationsQueryKey } from './keys.ts'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { liveQuery } from 'dexie'
import type { CachedConversation } from '../../../shared/db/db.ts'
import type { GraphClient } from '../../../shared/graph/types.ts'
import { PAGE_SIZE_CONVERSATIONS } from '../../../shared/constants/limits.ts'
import { readAllConversations, readFirstConversations, storeConversations } from '../model/cache.ts'
import { paceConversationsCall } from '../model/pacer.ts'
import { readSyncState, runConversationSync, SYNC_PAGE_SIZE } from '../model/sync.ts'
import { isNetworkError, withFreshToken } from '../../../shared/graph/fresh-token.ts'
import { failureKind } from '../../../shared/graph/delivery.ts'

/** Rows read before the whole cache, enough for the first screen. */
const FIRST_PAINT_ROWS = 40
/** After a throttling answer the sync waits this long before its next call. */
const THROTTLE_BACKOFF_MS = 60_000
/** After another failure (not the connection: that waits for `online`). */
const FAILURE_BACKOFF_MS = 15_000

export interface ConversationListSource {
  pageId: string
  graph: GraphClient
  /** Undefined while the page is being entered, or offline after a reload. */
  pageToken: string | undefined
  refreshToken: () => Promise<string>
}

export type SyncPhase = 'idle' | 'running' | 'done' | 'paused'

export interface SyncProgress {
  phase: SyncPhase
  /** The page's conversations in the cache (all of them once `phase` is 'done'). */
  synced: number
}

export interface ConversationListState {
  rows: readonly CachedConversation[]
  /** Nothing shown yet: neither cache nor network answered. */
  initialising: boolean
  loading: boolean
  /** Every conversation of the page is in the list (the network said there is no further page). */
  exhausted: boolean
  error?: unknown
  loadMore: () => void
  /** Reads the list again from the head (the refresh control, pull to refresh). */
  refresh: () => Promise<void>
  refreshing: boolean
  sync: SyncProgress
  /** Unread messages over the page's cached conversations. */
  unread: number
}

interface NetworkPage {
  count: number
  after?: string
}

export { conversationsQueryKey }

/** The cache's rows of the page: the first screen's worth at once, then all of them and every change. */
function useCachedRows(pageId: string): { rows: readonly CachedConversation[]; read: boolean } {
  const [state, setState] = useState<{ rows: readonly CachedConversation[]; read: boolean }>({
    rows: [],
    read: false,
  })
  useEffect(() => {
    let live = true
    let full = false
    void readFirstConversations(pageId, FIRST_PAINT_ROWS).then((first) => {
      if (live && !full && first.length > 0) setState({ rows: first, read: true })
    })
    const subscription = liveQuery(() => readAllConversations(pageId)).subscribe({
      next: (all) => {
        full = true
        if (live) setState({ rows: all, read: true })
      },
      error: (err: unknown) => console.error('the conversation cache could not be read', err),
    })
    return () => {
      live = false
      subscription.unsubscribe()
    }
  }, [pageId])
  return state
}

export function useConversationList({
  pageId,
  graph,
  pageToken,
  refreshToken,
}: ConversationListSource): ConversationListState {
  const cached = useCachedRows(pageId)
  const tokenRef = useRef(pageToken)
  useEffect(() => {
    tokenRef.current = pageToken
  }, [pageToken])

  const read = useCallback(
    (after: string | undefined, limit: number, signal?: AbortSignal) =>
      paceConversationsCall(pageId, signal).then(() =>
        withFreshToken(tokenRef.current ?? '', refreshToken, (token) =>
          graph.conversations(pageId, token, { limit, after }),
        ),
      ),
    [graph, pageId, refreshToken],
  )

  const query = useInfiniteQuery({
    queryKey: conversationsQueryKey(pageId),
    enabled: !!pageToken,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }): Promise<NetworkPage> => {
      const page = await read(pageParam, PAGE_SIZE_CONVERSATIONS, signal)
      await storeConversations(pageId, page.data)
      return { count: page.data.length, after: page.paging?.next ? page.paging.cursors?.after : undefined }
    },
    getNextPageParam: (last) => last.after,
    staleTime: 10_000,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
    // A dropped connection is retried by the reconnect refetch; a throttled or refused read is not retried.
    retry: false,
  })

  const sync = useBackgroundSync(pageId, pageToken, read)

  const { hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = query
  const loadMore = useCallback(() => {
    // While the sync runs it extends the list itself; the list's own pages only load when it does not.
    if (sync.phase === 'running' || sync.phase === 'done') return
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage()
  }, [sync.phase, hasNextPage, isFetchingNextPage, fetchNextPage])

  const [refreshing, setRefreshing] = useState(false)
  const restartSync = sync.restart
  const refresh = useCallback(async () => {
    setRefreshing(true)
    try {
      await refetch()
      restartSync()
    } finally {
      setRefreshing(false)
    }
  }, [refetch, restartSync])

  const rows = cached.rows
  const unread = useMemo(() => rows.reduce((sum, r) => sum + r.unreadCount, 0), [rows])
  const answered = query.isSuccess || query.isError
  const initialising = rows.length === 0 && !(cached.read && answered) && !query.isError
  const exhausted =
    sync.phase === 'done' || (query.isSuccess && !query.hasNextPage && sync.phase !== 'running')
  return {
    rows,
    initialising,
    loading: query.isFetchingNextPage || (query.isPending && query.fetchStatus === 'fetching'),
    exhausted,
    error: query.error ?? undefined,
    loadMore,
    refresh,
    refreshing,
    sync: { phase: sync.phase, synced: rows.length },
    unread,
  }
}

type Reader = (
  after: string | undefined,
  limit: number,
  signal?: AbortSignal,
) => ReturnType<GraphClient['conversations']>

/**
 * Runs the page's background sync while the inbox is open with a token: stopped when the page changes, the
 * token goes (sign-out) or the inbox closes; after a dropped connection it goes on when the browser is
 * online again, after throttling or another failure after a pause.
 */
function useBackgroundSync(
  pageId: string,
  pageToken: string | undefined,
  read: Reader,
): { phase: SyncPhase; restart: () => void } {
  const [storedDone, setStoredDone] = useState(false)
  const [attempt, setAttempt] = useState(0)
  /** How the run of `attempt` ended (a run that has not ended is running). */
  const [ended, setEnded] = useState<{ attempt: number; phase: 'done' | 'paused' }>()
  const restart = useCallback(() => setAttempt((n) => n + 1), [])
  const hasToken = !!pageToken

  useEffect(() => {
    let live = true
    void readSyncState(pageId).then((s) => live && setStoredDone(!!s?.done))
    return () => {
      live = false
    }
  }, [pageId])

  useEffect(() => {
    if (!hasToken) return
    const controller = new AbortController()
    let retry: ReturnType<typeof setTimeout> | undefined
    const again = () => setAttempt((n) => n + 1)
    runConversationSync(pageId, {
      // The reader takes its turn at the page's conversations endpoint (pacer.ts) itself.
      fetchPage: (after) => read(after, SYNC_PAGE_SIZE, controller.signal),
      pace: () => Promise.resolve(),
      signal: controller.signal,
    }).then(
      (state) => {
        if (!controller.signal.aborted) setEnded({ attempt, phase: state.done ? 'done' : 'paused' })
      },
      (err: unknown) => {
        if (controller.signal.aborted) return
        setEnded({ attempt, phase: 'paused' })
        if (isNetworkError(err)) window.addEventListener('online', again, { once: true })
        else
          retry = setTimeout(
            again,
            failureKind(err) === 'throttle' ? THROTTLE_BACKOFF_MS : FAILURE_BACKOFF_MS,
          )
      },
    )
    return () => {
      controller.abort()
      clearTimeout(retry)
      window.removeEventListener('online', again)
    }
  }, [pageId, hasToken, read, attempt])

  const phase: SyncPhase =
    ended?.attempt === attempt
      ? ended.phase
      : storedDone
        ? 'done'
        : hasToken
          ? 'running'
          : ended
            ? 'paused'
            : 'idle'
  return { phase, restart }
}

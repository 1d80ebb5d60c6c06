/**
 * The conversation list of one page. What it shows is the Dexie cache (the newest rows at once, then the
 * rest, then every change): offline after a reload it is all there is. One walk over the network's
 * conversations edge fills it (model/sync.ts): TanStack Query reads the head (on entry, on focus, on
 * reconnect, on refresh and when a live message asks for it), and from there the walk reads the rest of the
 * page's conversations to the end of the list, so the list and its filter hold all of them. Every failure of
 * either waits by one rule (`retryWait`) before the walk tries again.
 */
import { conversationsQueryKey } from './keys.ts'
import { reportHistory } from './report-history.ts'
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { CachedConversation, InboxSyncState } from '../../../device/db/db.ts'
import type { GraphClient } from '../../../core/graph/types.ts'
import { PAGE_SIZE_CONVERSATIONS } from '../../../core/constants/limits.ts'
import { backoff } from '../../../core/network/backoff.ts'
import { keepUnchanged, readChangedConversations, readFirstConversations } from '../model/cache.ts'
import { type Changes, watchTables, writtenKeys } from '../model/main-thread.ts'
import { paceConversationsCall } from '../../../shared/network/conversations-pacer.ts'
import { readOwner, readSyncState, runConversationSync, storeHead, SYNC_PAGE_SIZE } from '../model/sync.ts'
import { isNetworkError, withFreshToken } from '../../../core/graph/fresh-token.ts'
import { failureKind } from '../../../core/graph/delivery.ts'

/** Rows read before the whole cache, enough for the first screen. */
const FIRST_PAINT_ROWS = 40
/**
 * The cache is read again at most this often while it changes (the walk stores a page twice a second); only
 * the rows written since are read.
 */
const CACHE_READ_GAP_MS = 300
/** After a throttling answer the walk waits about this long before its next call, and longer each time. */
const THROTTLE_BACKOFF_MS = 60_000
/** After another failure (not the connection: that waits for `online`). */
const FAILURE_BACKOFF_MS = 15_000
/** The longest wait between two tries. */
const MAX_BACKOFF_MS = 10 * 60_000

/**
 * How long the walk waits after its `failures`-th failure in a row before it tries again; undefined for a
 * dropped connection, which waits for the browser to be online again.
 */
export function retryWait(err: unknown, failures: number, random: () => number = Math.random) {
  if (isNetworkError(err)) return undefined
  const base = failureKind(err) === 'throttle' ? THROTTLE_BACKOFF_MS : FAILURE_BACKOFF_MS
  return backoff(failures, base, MAX_BACKOFF_MS, random)
}

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

export { conversationsQueryKey }

/** The cache's rows of the page: the first screen's worth at once, then all of them and every change. */
interface CachedRows {
  rows: readonly CachedConversation[]
  read: boolean
  /** When the read that gave `rows` started (performance.now()): it holds every write made before. */
  readAt: number
}

function useCachedRows(pageId: string): CachedRows {
  const [state, setState] = useState<CachedRows>({ rows: [], read: false, readAt: -Infinity })
  useEffect(() => {
    let live = true
    let full = false
    void readFirstConversations(pageId, FIRST_PAINT_ROWS).then((first) => {
      if (live && !full && first.length > 0) setState((s) => ({ ...s, rows: first, read: true }))
    })
    /** The page's rows as the last read left them (undefined before the first whole read). */
    let known: readonly CachedConversation[] | undefined
    const read = async (changes: Changes) => {
      const readAt = performance.now()
      return {
        all: await readChangedConversations(pageId, known, writtenKeys(changes, 'conversations')),
        readAt,
      }
    }
    const stop = watchTables(['conversations'], read, CACHE_READ_GAP_MS, {
      next: ({ all, readAt }) => {
        known = all
        full = true
        // Drawn in slices the browser may interrupt for a tap or a keystroke.
        startTransition(() =>
          setState((s) => ({ rows: s.read ? keepUnchanged(s.rows, all) : all, read: true, readAt })),
        )
      },
      error: (err: unknown) => console.error('the conversation cache could not be read', err),
    })
    return () => {
      live = false
      stop()
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

  const head = useQuery({
    queryKey: conversationsQueryKey(pageId),
    enabled: !!pageToken,
    queryFn: async ({ signal }): Promise<InboxSyncState | null> => {
      const owner = await readOwner()
      const page = await read(undefined, PAGE_SIZE_CONVERSATIONS, signal)
      // The walk reports every page it reads; the head is reported alongside, without waiting for it.
      void reportHistory(pageId, page.data).catch(() => undefined)
      return (await storeHead(pageId, owner, page)) ?? null
    },
    staleTime: 10_000,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
    // The walk's one rule decides when to read again (a dropped connection: on reconnect).
    retry: false,
  })

  const walk = useWalk(pageId, pageToken, read, head)

  const [refreshing, setRefreshing] = useState(false)
  const { refetch } = head
  const restartWalk = walk.restart
  const refresh = useCallback(async () => {
    setRefreshing(true)
    try {
      await refetch()
      restartWalk()
    } finally {
      setRefreshing(false)
    }
  }, [refetch, restartWalk])

  const rows = cached.rows
  const unread = useMemo(() => rows.reduce((sum, r) => sum + r.unreadCount, 0), [rows])
  const answered = head.isSuccess || head.isError
  const initialising = rows.length === 0 && !(cached.read && answered) && !head.isError
  return {
    rows,
    initialising,
    loading: head.isPending && head.fetchStatus === 'fetching',
    // The end of the list once the walk reached it and the rows shown were read after that.
    exhausted: walk.phase === 'done' && cached.readAt >= walk.doneAt,
    error: head.error ?? undefined,
    loadMore: walk.tryNow,
    refresh,
    refreshing,
    sync: { phase: walk.phase, synced: rows.length },
    unread,
  }
}

type Reader = (
  after: string | undefined,
  limit: number,
  signal?: AbortSignal,
) => ReturnType<GraphClient['conversations']>

interface HeadRead {
  data: InboxSyncState | null | undefined
  error: unknown
  errorUpdateCount: number
  refetch: () => Promise<unknown>
}

/**
 * The walk from the head to the end of the list while the inbox is open with a token: stopped when the page
 * changes, the token goes (sign-out) or the inbox closes. It starts once the head was read (and again when a
 * head read starts a new walk); after a failure of the head or of the walk it tries again by `retryWait`.
 */
function useWalk(
  pageId: string,
  pageToken: string | undefined,
  read: Reader,
  head: HeadRead,
): { phase: SyncPhase; doneAt: number; restart: () => void; tryNow: () => void } {
  const [storedDone, setStoredDone] = useState(false)
  const [attempt, setAttempt] = useState(0)
  /** How the run of `run` ended (a run that has not ended is running). */
  const [ended, setEnded] = useState<{ run: string; phase: 'done' | 'paused'; at: number }>()
  /** Failures in a row (of the head and of the walk): the next wait grows with them. */
  const failures = useRef(0)
  /** Tries again at once, while the walk waits after a failure that was not throttling. */
  const early = useRef<(() => void) | undefined>(undefined)
  const restart = useCallback(() => {
    failures.current = 0
    setAttempt((n) => n + 1)
  }, [])
  const tryNow = useCallback(() => early.current?.(), [])
  const hasToken = !!pageToken
  const started = head.data === undefined ? undefined : (head.data?.startedAt ?? 0)
  const run = `${pageId}:${started}:${attempt}`

  useEffect(() => {
    let live = true
    void readSyncState(pageId).then((s) => live && setStoredDone(!!s?.done))
    return () => {
      live = false
    }
  }, [pageId])

  /** Waits by the rule after `err`, then calls `again`; returns what cancels the wait. */
  const wait = useCallback((err: unknown, again: () => void) => {
    failures.current += 1
    const ms = retryWait(err, failures.current)
    if (ms === undefined) {
      window.addEventListener('online', again, { once: true })
      return () => window.removeEventListener('online', again)
    }
    const timer = setTimeout(again, ms)
    if (failureKind(err) !== 'throttle') early.current = again
    return () => {
      clearTimeout(timer)
      early.current = undefined
    }
  }, [])

  // A head read that failed (not for the connection: that is read again on reconnect) is read again.
  const { error: headError, errorUpdateCount, refetch } = head
  useEffect(() => {
    if (!hasToken || !headError || isNetworkError(headError)) return
    return wait(headError, () => void refetch())
  }, [hasToken, headError, errorUpdateCount, refetch, wait])

  useEffect(() => {
    if (!hasToken || started === undefined) return
    const controller = new AbortController()
    let cancel: (() => void) | undefined
    runConversationSync(pageId, {
      // The reader takes its turn at the page's conversations endpoint (pacer.ts) itself.
      fetchPage: (after) => read(after, SYNC_PAGE_SIZE, controller.signal),
      report: (page) => reportHistory(pageId, page),
      pace: () => Promise.resolve(),
      signal: controller.signal,
    }).then(
      (state) => {
        if (controller.signal.aborted) return
        if (state.done) failures.current = 0
        setEnded({ run, phase: state.done ? 'done' : 'paused', at: performance.now() })
      },
      (err: unknown) => {
        if (controller.signal.aborted) return
        setEnded({ run, phase: 'paused', at: performance.now() })
        cancel = wait(err, () => setAttempt((n) => n + 1))
      },
    )
    return () => {
      controller.abort()
      cancel?.()
    }
  }, [pageId, hasToken, read, started, run, wait])

  const phase: SyncPhase =
    ended?.run === run
      ? ended.phase
      : head.data?.done || storedDone
        ? 'done'
        : hasToken
          ? 'running'
          : ended
            ? 'paused'
            : 'idle'
  const doneAt = ended?.run === run && ended.phase === 'done' ? ended.at : -Infinity
  return { phase, doneAt, restart, tryNow }
}

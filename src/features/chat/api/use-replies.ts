/**
 * Sending replies through the outbox: queue, flush (now if online, else when the connection returns),
 * and the undelivered replies of the open conversation for display.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react'
import { useLiveQuery } from 'dexie-react-hooks'
import { db } from '../../../device/db/db.ts'
import type { GraphClient } from '../../../core/graph/types.ts'
import { type WindowOptions, type WindowStatus, windowStatus } from '../../../core/policy/window.ts'
import {
  discardReply,
  flushReplies,
  type FlushOutcome,
  queueReply,
  type ReplyEntry,
  undeliveredReplies,
} from '../model/outbox.ts'
import { replyTransport } from './reply-transport.ts'

export interface RepliesSource {
  pageId: string
  conversationId: string
  recipientId: string
  graph: GraphClient
  /** Undefined offline after a reload: replies wait in the outbox. */
  pageToken: string | undefined
  withToken: <T>(call: (token: string) => Promise<T>) => Promise<T>
  windowOptions: WindowOptions
  /** The open conversation's window, as the composer shows it. */
  currentStatus: WindowStatus
  refusal: (status: WindowStatus) => string
  /** Called after a flush delivered something of the open conversation. */
  onDelivered: () => void
}

const EMPTY: ReplyEntry[] = []

/** Another conversation's window, from what the cache knows of its customer's last message. */
async function windowOfCached(
  pageId: string,
  conversationId: string,
  options: WindowOptions,
): Promise<WindowStatus> {
  const row = await db.conversations.get(`${pageId}:${conversationId}`)
  return windowStatus(row?.lastCustomerMessageAt, Date.now(), options)
}

export function useReplies(src: RepliesSource) {
  const {
    pageId,
    conversationId,
    recipientId,
    graph,
    pageToken,
    withToken,
    windowOptions,
    currentStatus,
    refusal,
    onDelivered,
  } = src
  const pending =
    useLiveQuery(() => undeliveredReplies(pageId, conversationId), [pageId, conversationId]) ?? EMPTY

  const transport = useMemo(
    () =>
      replyTransport({
        pageId,
        graph,
        withToken,
        refusal,
        async windowFor(id) {
          if (id === conversationId) return currentStatus
          return windowOfCached(pageId, id, windowOptions)
        },
      }),
    [pageId, graph, withToken, refusal, conversationId, currentStatus, windowOptions],
  )

  const flush = useCallback(async (): Promise<FlushOutcome[]> => {
    if (!pageToken) return []
    return flushReplies(transport)
  }, [pageToken, transport])

  // A reply that leaves the outbox without being discarded here was delivered, by this chat's flush or by
  // the app's (which sends queued replies from any screen): either way the history shows it now.
  const discarded = useRef(new Set<string>())
  const shown = useRef<readonly ReplyEntry[]>(EMPTY)
  useEffect(() => {
    const now = new Set(pending.map((e) => e.id))
    const gone = shown.current.filter((e) => !now.has(e.id) && !discarded.current.delete(e.id))
    shown.current = pending
    if (gone.length > 0) onDelivered()
  }, [pending, onDelivered])
  const discard = useCallback((id: string) => {
    discarded.current.add(id)
    return discardReply(id)
  }, [])

  // Whatever waits is sent when a token is there and whenever the connection returns.
  useEffect(() => {
    void flush()
    const onOnline = () => void flush()
    window.addEventListener('online', onOnline)
    return () => window.removeEventListener('online', onOnline)
  }, [flush])

  const send = useCallback(
    async (
      text: string,
      imageUrl: string | undefined,
    ): Promise<{ entry: ReplyEntry; outcome?: FlushOutcome }> => {
      const entry = await queueReply({ pageId, conversationId, recipientId, text, imageUrl })
      if (!navigator.onLine || !pageToken) return { entry }
      const outcomes = await flush()
      return { entry, outcome: outcomes.find((o) => o.id === entry.id) }
    },
    [pageId, conversationId, recipientId, pageToken, flush],
  )

  return { pending, send, discard }
}

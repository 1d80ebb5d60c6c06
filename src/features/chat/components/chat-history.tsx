/**
 * The scrolling history, virtualised like the conversation list: only the messages in view (plus a few) are
 * in the DOM, each measured as it is drawn. The view is anchored at the bottom: it opens on the newest
 * message, follows new ones while the user is at the bottom, and when older messages are prepended (loaded
 * when the top is reached) the message the user was reading stays where it was.
 */
import { useDeferredValue, useEffect, useRef } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { Trans } from '@lingui/react/macro'
import type { CachedMessage } from '../../../device/db/db.ts'
import { observeSize } from '../../../shared/ui/observe-size.ts'
import { receiptState, type Watermarks } from '../../../shared/live/receipts.ts'
import type { ReplyEntry } from '../model/outbox.ts'
import { MessageBubble } from './message-bubble.tsx'
import { useOptInTitles } from '../api/optin-requests.ts'

const TOP_THRESHOLD_PX = 48
/** A text bubble with its time, before it is measured. */
const ESTIMATED_HEIGHT_PX = 72
const GAP_PX = 12
const PADDING_PX = 16
const OVERSCAN = 8
const NO_MESSAGES: readonly CachedMessage[] = []

export interface ChatHistoryProps {
  pageId: string
  conversationId: string
  /** The customer of the chat (their opt-in requests are read from the server). */
  customerId: string
  /** Online, with the page entered (registered with the API): the server's records may be read. */
  online: boolean
  messages: readonly CachedMessage[]
  pending: readonly ReplyEntry[]
  loadingOlder: boolean
  complete: boolean
  /** Changes when the view must jump to the newest message (selection, after a send). */
  bottomSignal: number
  /** The delivery and read watermarks of this customer (the page's messages show them). */
  receipts?: Watermarks
  onLoadOlder: () => Promise<void>
  onDiscard: (id: string) => void
}

type Item = { kind: 'message'; message: CachedMessage } | { kind: 'pending'; reply: ReplyEntry }

export function ChatHistory({
  pageId,
  conversationId,
  customerId,
  online,
  messages: latest,
  pending,
  loadingOlder,
  complete,
  bottomSignal,
  receipts,
  onLoadOlder,
  onDiscard,
}: ChatHistoryProps) {
  const optins = useOptInTitles({ pageId, conversationId, customerId, online })
  // A newly opened chat first shows its frame, then its messages in the next frames: the page's first layout
  // and the history's (long texts in several scripts) are then separate tasks. Only that first time: the
  // virtualizer takes its list during render, so once drawn every render must give it the list it commits.
  // A deferred render of a longer list, interrupted by an urgent one (the older page's loading flag) that
  // commits the shorter list, would leave it anchoring the longer list's place on the shorter list's DOM, and
  // the view would jump to the end instead of staying on the message being read.
  const deferred = useDeferredValue(latest, NO_MESSAGES)
  const messages = deferred.length > 0 ? latest : deferred
  const ref = useRef<HTMLDivElement>(null)
  const items: Item[] = [
    ...messages.map((message) => ({ kind: 'message' as const, message })),
    ...pending.map((reply) => ({ kind: 'pending' as const, reply })),
  ]
  const keyOf = (item: Item | undefined, index: number) =>
    item ? (item.kind === 'message' ? `m:${item.message.id}` : `r:${item.reply.id}`) : index

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => ref.current,
    estimateSize: () => ESTIMATED_HEIGHT_PX,
    overscan: OVERSCAN,
    gap: GAP_PX,
    paddingStart: PADDING_PX,
    paddingEnd: PADDING_PX,
    getItemKey: (index) => keyOf(items[index], index),
    observeElementRect: observeSize,
    initialRect: { width: 0, height: window.innerHeight },
    // A chat: prepended (older) messages keep the view where it is; appended ones are followed at the bottom.
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: TOP_THRESHOLD_PX,
  })

  // The newest message is in view when the chat opens, after a send, and when asked.
  const opened = useRef(false)
  const hasItems = items.length > 0
  useEffect(() => {
    if (!hasItems || opened.current) return
    opened.current = true
    virtualizer.scrollToEnd()
  }, [hasItems, virtualizer])
  useEffect(() => {
    virtualizer.scrollToEnd()
  }, [bottomSignal, virtualizer])

  const onScroll = () => {
    const el = ref.current
    if (!el || complete || loadingOlder || el.scrollTop > TOP_THRESHOLD_PX) return
    void onLoadOlder()
  }

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      {loadingOlder ? (
        <p
          data-testid="chat-history-loading"
          className="absolute inset-x-0 top-2 z-10 mx-auto w-fit rounded-full bg-white/90 px-3 py-1 text-center text-sm text-gray-500 shadow"
        >
          <Trans>Loading...</Trans>
        </p>
      ) : null}
      <div
        ref={ref}
        onScroll={onScroll}
        data-testid="chat-history"
        data-count={messages.length}
        // A scrolling region a keyboard can reach (and scroll with the arrow keys).
        tabIndex={0}
        className="min-h-0 flex-1 overflow-y-auto px-4"
      >
        <ol className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = items[v.index]!
            const place = {
              ref: virtualizer.measureElement,
              index: v.index,
              style: {
                position: 'absolute',
                insetInlineStart: 0,
                top: 0,
                width: '100%',
                transform: `translateY(${v.start}px)`,
              },
            } as const
            return item.kind === 'message' ? (
              <MessageBubble
                key={v.key}
                {...place}
                text={item.message.text}
                imageUrls={item.message.imageUrls}
                mine={item.message.fromId === pageId}
                at={item.message.createdAt}
                optinTitle={item.message.fromId === pageId ? optins.get(item.message.id) : undefined}
                {...(item.message.fromId === pageId
                  ? { receipt: receiptState(item.message.createdAt, receipts) }
                  : {})}
              />
            ) : (
              <MessageBubble
                key={v.key}
                {...place}
                text={item.reply.text}
                imageUrls={item.reply.imageUrl ? [item.reply.imageUrl] : []}
                mine
                at={item.reply.createdAt}
                outboxState={item.reply.state}
                onDiscard={() => onDiscard(item.reply.id)}
              />
            )
          })}
        </ol>
      </div>
    </div>
  )
}

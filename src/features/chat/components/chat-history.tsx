/**
 * The scrolling history. Older messages load when the top is reached; the view keeps the message the user
 * was reading in place (no jump) by restoring the distance from the bottom after the prepend.
 */
import { useDeferredValue, useLayoutEffect, useRef } from 'react'
import { Trans } from '@lingui/react/macro'
import type { CachedMessage } from '../../../shared/db/db.ts'
import { receiptState, type Watermarks } from '../../../shared/live/receipts.ts'
import type { ReplyEntry } from '../model/outbox.ts'
import { MessageBubble } from './message-bubble.tsx'

const TOP_THRESHOLD_PX = 48
const NO_MESSAGES: readonly CachedMessage[] = []

export interface ChatHistoryProps {
  pageId: string
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

export function ChatHistory({
  pageId,
  messages: latest,
  pending,
  loadingOlder,
  complete,
  bottomSignal,
  receipts,
  onLoadOlder,
  onDiscard,
}: ChatHistoryProps) {
  // A newly opened chat first shows its frame, then its messages in the next frames: the page's first layout
  // and the history's (long texts in several scripts) are then separate tasks.
  const messages = useDeferredValue(latest, NO_MESSAGES)
  const ref = useRef<HTMLDivElement>(null)
  /** Distance from the bottom to keep while older messages are prepended. */
  const anchor = useRef<number | null>(null)
  /** The view follows new messages only while the user is at the bottom (true at first). */
  const atBottom = useRef(true)

  // Scrolling reads the history's height, which forces a layout. It is done in the next animation frame
  // (still before that frame is painted, so nothing jumps) instead of inside React's commit: the commit and
  // the layout of a long history are then two tasks, not one long one.
  const scrollInNextFrame = (scroll: (el: HTMLDivElement) => void) => {
    const frame = requestAnimationFrame(() => {
      if (ref.current) scroll(ref.current)
    })
    return () => cancelAnimationFrame(frame)
  }

  useLayoutEffect(
    () =>
      scrollInNextFrame((el) => {
        if (anchor.current !== null) {
          el.scrollTop = el.scrollHeight - anchor.current
          anchor.current = null
        } else if (atBottom.current) {
          el.scrollTop = el.scrollHeight
        }
      }),
    [messages, pending.length],
  )

  useLayoutEffect(
    () =>
      scrollInNextFrame((el) => {
        atBottom.current = true
        el.scrollTop = el.scrollHeight
      }),
    [bottomSignal],
  )

  const onScroll = () => {
    const el = ref.current
    if (!el) return
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < TOP_THRESHOLD_PX
    if (complete || loadingOlder || el.scrollTop > TOP_THRESHOLD_PX) return
    anchor.current = el.scrollHeight - el.scrollTop
    void onLoadOlder().finally(() => {
      // Nothing older arrived: nothing to restore.
      if (
        anchor.current !== null &&
        ref.current &&
        ref.current.scrollHeight - ref.current.scrollTop === anchor.current
      )
        anchor.current = null
    })
  }

  return (
    <div
      ref={ref}
      onScroll={onScroll}
      data-testid="chat-history"
      className="min-h-0 flex-1 overflow-y-auto p-4"
    >
      {loadingOlder ? (
        <p className="py-2 text-center text-sm text-gray-500">
          <Trans>Loading...</Trans>
        </p>
      ) : null}
      <ol className="flex flex-col gap-3">
        {messages.map((m) => (
          <MessageBubble
            key={m.id}
            text={m.text}
            imageUrls={m.imageUrls}
            mine={m.fromId === pageId}
            at={m.createdAt}
            {...(m.fromId === pageId ? { receipt: receiptState(m.createdAt, receipts) } : {})}
          />
        ))}
        {pending.map((r) => (
          <MessageBubble
            key={r.id}
            text={r.text}
            imageUrls={r.imageUrl ? [r.imageUrl] : []}
            mine
            at={r.createdAt}
            outboxState={r.state}
            onDiscard={() => onDiscard(r.id)}
          />
        ))}
      </ol>
    </div>
  )
}

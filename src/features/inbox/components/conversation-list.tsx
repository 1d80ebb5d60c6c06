/**
 * The virtualised conversation list: only the rows in view (plus a few) are in the DOM, so 10,000
 * conversations scroll as smoothly as 25. The next network page loads when the last row comes into view.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { usePullToRefresh, PULL_THRESHOLD } from './pull-to-refresh.ts'
import { elementScroll, useVirtualizer } from '@tanstack/react-virtual'
import { Trans, useLingui } from '@lingui/react/macro'
import type { CachedConversation } from '../../../device/db/db.ts'
import { observeSize } from '../../../shared/ui/observe-size.ts'
import { useIdleAfter } from '../../../shared/ui/use-idle-after.ts'
import { ConversationRow } from './conversation-row.tsx'
import { sameNameTells } from '../model/conversation.ts'
import type { InboxRow } from '../model/list-view.ts'
import type { WindowOptions } from '../../../core/policy/window.ts'

const ROW_HEIGHT = 64
/** A row with the page's broadcast shown apart under the customer's words has a third, small line. */
const ROW_HEIGHT_WITH_BROADCAST = 82
const rowHeight = (row: InboxRow | undefined) =>
  row?.broadcastText !== undefined ? ROW_HEIGHT_WITH_BROADCAST : ROW_HEIGHT
/**
 * Rows drawn beyond the visible ones on each side, so a quick scroll never shows a gap. The list's first
 * drawing has none: it draws what is seen, and the rest follows at the browser's next idle moment.
 */
const OVERSCAN = 6
/** Relative times are re-rendered once a minute, not on every render. */
const CLOCK_TICK_MS = 60_000

export interface ConversationListProps {
  rows: readonly InboxRow[]
  selectedId?: string
  loading: boolean
  exhausted: boolean
  /** A filter is applied: the end of the list is the end of the matches, not a reason to load more. */
  filtering: boolean
  pictureUrl: (customerId: string) => string | undefined
  onSelect: (row: CachedConversation) => void
  /** "Mark as done" on a row that needs a reply. */
  onMarkDone: (row: InboxRow) => void
  onEndReached: () => void
  /** Pulling the top of the list down on a touch screen refreshes it. */
  onRefresh: () => Promise<void>
  refreshing: boolean
  /** Selecting rows: the ids picked (a tap picks or lets go of a row instead of opening it). */
  picked?: ReadonlySet<string>
  /** The page's messaging policy: whether a waiting customer's row says a reply reaches them or not. */
  windowOptions: WindowOptions
}

/** Drawn again only when its own props change (not on every keystroke in the filter above it). */
export const ConversationList = memo(function ConversationList(props: ConversationListProps) {
  const { rows, selectedId, loading, exhausted, filtering, pictureUrl, onSelect, onEndReached } = props
  const { onMarkDone } = props
  const { t } = useLingui()
  const scrollRef = useRef<HTMLDivElement>(null)
  const pull = usePullToRefresh(scrollRef, props.onRefresh)
  const pullShown = props.refreshing ? PULL_THRESHOLD : pull.distance
  /** The list has been scrolled, by the user or by the virtualizer: from then on every write goes through. */
  const moved = useRef(false)
  const overscan = useIdleAfter(rows.length > 0) ? OVERSCAN : 0
  const [now, setNow] = useState(() => Date.now())
  const tells = useMemo(() => sameNameTells(rows), [rows])
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS)
    return () => clearInterval(id)
  }, [])
  // The same functions for the same rows: the virtualizer places the rows again only when they change.
  const estimateSize = useCallback((index: number) => rowHeight(rows[index]), [rows])
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows])

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan,
    getItemKey,
    observeElementRect: observeSize,
    // A new list already shows its top: the virtualizer's first "scroll to 0" would only force a layout.
    scrollToFn: (offset, options, instance) => {
      if (offset === 0 && !moved.current) return
      moved.current = true
      elementScroll(offset, options, instance)
    },
    initialRect: { width: 0, height: window.innerHeight },
  })
  const items = virtualizer.getVirtualItems()
  const lastIndex = items.at(-1)?.index ?? -1
  const endInView = lastIndex >= rows.length - 1

  useEffect(() => {
    if (endInView && !filtering && !exhausted && !loading) onEndReached()
  }, [endInView, filtering, exhausted, loading, onEndReached, rows.length])

  return (
    <div
      ref={scrollRef}
      onScroll={(e) => {
        moved.current = true
        pull.onScroll(e)
      }}
      {...pull.handlers}
      data-testid="conversation-list"
      // Nothing scrolls the page behind the list, nor reloads it, when the list is pulled at its top.
      className="min-h-0 flex-1 overflow-y-auto overscroll-y-contain"
      style={{ touchAction: pull.touchAction }}
    >
      {pullShown > 0 ? (
        <p
          data-testid="pull-to-refresh"
          aria-live="polite"
          className="flex items-end justify-center overflow-hidden pb-2 text-xs text-gray-500"
          style={{ height: pullShown }}
        >
          {props.refreshing ? (
            <Trans>Refreshing…</Trans>
          ) : pull.distance >= PULL_THRESHOLD ? (
            <Trans>Release to refresh</Trans>
          ) : (
            <Trans>Pull to refresh</Trans>
          )}
        </p>
      ) : null}
      {/* The list is the rows alone: the pull hint and the status line beside them are not list items. */}
      <div role="list" className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index]!
          return (
            <div
              key={item.key}
              role="listitem"
              className="absolute start-0 top-0 flex w-full"
              // A row's size never depends on its text: laying out one row (names and snippets in several
              // scripts) never makes the browser lay out the others or the list again.
              style={{ height: rowHeight(row), transform: `translateY(${item.start}px)`, contain: 'strict' }}
            >
              <div className="min-w-0 flex-1">
                <ConversationRow
                  row={row}
                  selected={row.id === selectedId}
                  pictureUrl={pictureUrl(row.customerId)}
                  now={now}
                  windowOptions={props.windowOptions}
                  tell={tells.get(row.id)}
                  onSelect={onSelect}
                  picked={props.picked ? props.picked.has(row.id) : undefined}
                />
              </div>
              {row.needsReply && !props.picked ? (
                <button
                  type="button"
                  data-testid="conversation-mark-done"
                  onClick={() => onMarkDone(row)}
                  aria-label={t`Mark as done: ${row.customerName}`}
                  title={t`Mark as done`}
                  className="grid w-11 shrink-0 place-items-center text-gray-500 hover:bg-gray-100 hover:text-brand-700"
                >
                  <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-5">
                    <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" />
                  </svg>
                </button>
              ) : null}
            </div>
          )
        })}
      </div>
      {/* The first load's line is replaced, not pushed down, when the rows arrive above it: a line that moved
          down the screen would count as the layout shifting. */}
      <p
        key={loading && rows.length === 0 ? 'first-load' : 'status'}
        data-testid="conversation-list-status"
        className="px-3 py-4 text-center text-sm text-gray-500"
      >
        {loading ? (
          <Trans>Loading...</Trans>
        ) : exhausted || rows.length === 0 || filtering ? (
          <Trans>No such more messages</Trans>
        ) : null}
      </p>
    </div>
  )
})

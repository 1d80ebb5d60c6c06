/**
 * The left column: the "Messages" header with the sync's progress and the bulk toggle, the search (over every
 * cached conversation of the page, which the background sync fills) with the refresh control, the filters
 * and the conversation list.
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { CachedConversation } from '../../../device/db/db.ts'
import { useFuzzyMatcher } from '../../../shared/ui/fuzzy-matcher.ts'
import { filterConversations } from '../model/filter.ts'
import {
  type InboxRow,
  type ListFilter,
  type ListSort,
  applyFilter,
  filterCounts,
} from '../model/list-view.ts'
import type { ConversationListState, SyncProgress } from '../api/use-conversation-list.ts'
import type { WindowOptions } from '../../../core/policy/window.ts'
import { ConversationList } from './conversation-list.tsx'
import { ListFilters } from './list-filters.tsx'

export interface InboxColumnProps {
  list: ConversationListState
  /** Every cached conversation of the page with its needs-reply state (list.rows joined to the states). */
  rows: readonly InboxRow[]
  filter: ListFilter
  sort: ListSort
  onFilter: (filter: ListFilter) => void
  onSort: (sort: ListSort) => void
  onMarkDone: (row: InboxRow) => void
  selectedId?: string
  bulkOpen: boolean
  pictureUrl: (customerId: string) => string | undefined
  onSelect: (row: CachedConversation) => void
  onToggleBulk: () => void
  /** Keeps only the rows of the chosen label (the page's labels feature decides). */
  rowFilter?: (row: CachedConversation) => boolean
  /** Drawn under the search: the label filter and the selection's tools. */
  tools?: ReactNode
  /** Rows being selected (a tap picks a row instead of opening it). */
  picked?: ReadonlySet<string>
  /** Drawn under the list, in reach of a thumb: what to do with the selected rows. */
  footer?: ReactNode
  /** The page's messaging policy: which waiting customers a reply reaches now. */
  windowOptions: WindowOptions
}

/** What a reply can do for the waiting customers the filter shows, in plain words. */
function WaitingNote({ filter, options }: { filter: ListFilter; options: WindowOptions }) {
  if (filter.kind !== 'needs_reply' && filter.kind !== 'window_closed') return null
  return (
    <p data-testid="waiting-note" className="border-b border-gray-200 px-3 py-1 text-xs text-gray-600">
      {filter.kind === 'window_closed' ? (
        <Trans>
          Their window to reply has closed: a utility template or a marketing message can still reach them.
        </Trans>
      ) : options.policy === 'legacy' ? (
        <Trans>A reply reaches each of these customers now.</Trans>
      ) : options.humanAgentEnabled ? (
        <Trans>A reply reaches these customers now: they wrote in the last 7 days.</Trans>
      ) : (
        <Trans>A reply reaches these customers now: they wrote in the last 24 hours.</Trans>
      )}
    </p>
  )
}

/**
 * The sync's progress. Its line is there before the sync first reports, and it stays one line (cut at its end
 * beside the bulk button on a narrow phone), so the list below never moves when it reports or its count grows.
 */
function SyncStatus({ sync }: { sync: SyncProgress }) {
  const count = sync.synced
  return (
    <p
      data-testid="sync-status"
      data-phase={sync.phase}
      aria-live="polite"
      data-truncate="the sync's progress stays one line beside the bulk button"
      className="truncate text-xs text-gray-500"
    >
      {sync.phase === 'idle' && count === 0 ? (
        '\u00a0'
      ) : sync.phase === 'done' ? (
        <Plural value={count} one="All # conversation synced" other="All # conversations synced" />
      ) : (
        <Plural value={count} one="# conversation synced" other="# conversations synced" />
      )}
    </p>
  )
}

/**
 * The filter's input. What is typed is its own state: a keystroke draws the letter in the input alone. The
 * list follows once the frame that shows the letter is painted, as a transition (rendered in slices, dropped
 * for the next keystroke), so on a slow phone the letter never waits for the list; letters typed meanwhile
 * make one query.
 */
function SearchBox({ onQuery }: { onQuery: (query: string) => void }) {
  const { t } = useLingui()
  const [text, setText] = useState('')
  const pending = useRef<string | undefined>(undefined)
  const queryAfterPaint = (value: string) => {
    const scheduled = pending.current !== undefined
    pending.current = value
    if (scheduled) return
    requestAnimationFrame(() =>
      setTimeout(() => {
        const query = pending.current ?? ''
        pending.current = undefined
        onQuery(query)
      }),
    )
  }
  return (
    <input
      type="search"
      data-testid="conversation-filter"
      value={text}
      onChange={(e) => {
        setText(e.target.value)
        queryAfterPaint(e.target.value)
      }}
      placeholder={t`Search conversations`}
      aria-label={t`Search conversations`}
      className="min-h-11 w-full min-w-0 flex-1 rounded-md border border-gray-300 px-3 py-1.5 text-sm"
    />
  )
}

export function InboxColumn({
  list,
  rows,
  filter: listFilter,
  sort,
  onFilter,
  onSort,
  onMarkDone,
  selectedId,
  bulkOpen,
  pictureUrl,
  onSelect,
  onToggleBulk,
  rowFilter,
  tools,
  picked,
  footer,
  windowOptions,
}: InboxColumnProps) {
  const { t } = useLingui()
  const [query, setQuery] = useState('')
  const searchList = useCallback((q: string) => startTransition(() => setQuery(q)), [])
  const searching = query.trim() !== ''
  const fuzzy = useFuzzyMatcher(searching)
  // Windows that closed leave "Needs reply" and the top of "window closing first" within a minute.
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 60_000)
    return () => clearInterval(id)
  }, [])
  const counts = useMemo(() => filterCounts(rows, now, windowOptions), [rows, now, windowOptions])
  const kept = useMemo(
    () => applyFilter(rowFilter ? rows.filter(rowFilter) : rows, listFilter, sort, now, windowOptions),
    [rows, rowFilter, listFilter, sort, now, windowOptions],
  )
  const shown = useMemo(() => filterConversations(kept, query, fuzzy), [kept, query, fuzzy])
  return (
    <section
      aria-labelledby="inbox-heading"
      className="flex min-h-0 w-full flex-col border-e border-gray-200 bg-white md:w-80"
    >
      {/* One compact header: the title with the sync's progress and the bulk button, the search with the
          refresh, then the filters and the tools on one line that scrolls sideways. On a short screen (a
          phone sideways) with one pane shown the three share one line. */}
      <header className="flex flex-col gap-1 border-b border-gray-200 px-2 py-1 md:gap-2 md:p-3 short:gap-y-1 short:py-0.5 short:max-md:grid short:max-md:grid-cols-[auto_minmax(7rem,1fr)_minmax(0,1.5fr)] short:max-md:items-center short:max-md:gap-x-3">
        <div className="flex items-center gap-2">
          <div className="min-w-0 flex-1">
            <h2 id="inbox-heading" className="text-base font-semibold md:text-lg">
              <Trans>Messages</Trans>
            </h2>
            <SyncStatus sync={list.sync} />
          </div>
          <button
            type="button"
            data-testid="bulk-toggle"
            aria-pressed={bulkOpen}
            onClick={onToggleBulk}
            className={`min-h-11 max-w-[45%] shrink-0 rounded-md px-3 py-1 text-sm leading-tight font-medium ${bulkOpen ? 'bg-brand-700 text-white' : 'bg-brand-600 text-white hover:bg-brand-700'}`}
          >
            <Trans>Send new bulk message</Trans>
          </button>
        </div>
        <div className="flex min-w-0 items-center gap-1">
          <SearchBox onQuery={searchList} />
          <button
            type="button"
            data-testid="inbox-refresh"
            onClick={() => void list.refresh()}
            disabled={list.refreshing}
            aria-label={t`Refresh conversations`}
            title={t`Refresh conversations`}
            className="grid size-11 shrink-0 place-items-center rounded-md text-gray-600 hover:bg-gray-100 disabled:opacity-50"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              fill="currentColor"
              className={`size-5 ${list.refreshing ? 'animate-spin' : ''}`}
            >
              <path d="M10 3a7 7 0 0 1 6.3 4H14a1 1 0 1 0 0 2h4a1 1 0 0 0 1-1V4a1 1 0 1 0-2 0v1.5A9 9 0 1 0 19 10a1 1 0 1 0-2 0 7 7 0 1 1-7-7Z" />
            </svg>
          </button>
        </div>
        {/* The list's filters and the tools are one line that scrolls sideways, on every screen. */}
        <div
          className="-mx-2 flex min-w-0 gap-1.5 overflow-x-auto px-2 md:-mx-3 md:px-3 short:max-md:mx-0 short:max-md:px-0"
          data-truncate="the filters scroll sideways"
          data-testid="inbox-chips"
        >
          <ListFilters
            filter={listFilter}
            sort={sort}
            counts={counts}
            onFilter={onFilter}
            onSort={onSort}
            windowClosed={windowOptions.policy !== 'legacy'}
          />
          {tools}
        </div>
      </header>
      <WaitingNote filter={listFilter} options={windowOptions} />
      <ConversationList
        rows={shown}
        selectedId={selectedId}
        loading={list.loading || (list.initialising && list.rows.length === 0)}
        exhausted={list.exhausted}
        filtering={searching || listFilter.kind !== 'all' || !!rowFilter}
        picked={picked}
        pictureUrl={pictureUrl}
        onSelect={onSelect}
        onMarkDone={onMarkDone}
        onEndReached={list.loadMore}
        onRefresh={list.refresh}
        refreshing={list.refreshing}
        windowOptions={windowOptions}
      />
      {footer}
    </section>
  )
}

/**
 * The left column: "Messages" header with the refresh control, the filter (over every cached conversation of
 * the page, which the background sync fills), the sync's progress, the bulk toggle and the conversation list.
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
}

/**
 * The sync's progress. Its line is there before the sync first reports, so the list below does not move down
 * when it does.
 */
function SyncStatus({ sync }: { sync: SyncProgress }) {
  const count = sync.synced
  return (
    <p
      data-testid="sync-status"
      data-phase={sync.phase}
      aria-live="polite"
      className="text-xs text-gray-500 short:max-md:order-last short:max-md:col-span-4"
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
      className="min-h-11 w-full rounded-md border border-gray-300 px-3 py-1.5 text-sm"
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
}: InboxColumnProps) {
  const { t } = useLingui()
  const [query, setQuery] = useState('')
  const searchList = useCallback((q: string) => startTransition(() => setQuery(q)), [])
  const searching = query.trim() !== ''
  const fuzzy = useFuzzyMatcher(searching)
  const counts = useMemo(() => filterCounts(rows), [rows])
  // Windows that closed leave the top of "window closing first" within a minute.
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 60_000)
    return () => clearInterval(id)
  }, [])
  const kept = useMemo(
    () => applyFilter(rowFilter ? rows.filter(rowFilter) : rows, listFilter, sort, now),
    [rows, rowFilter, listFilter, sort, now],
  )
  const shown = useMemo(() => filterConversations(kept, query, fuzzy), [kept, query, fuzzy])
  return (
    <section
      aria-labelledby="inbox-heading"
      className="flex min-h-0 w-full flex-col border-e border-gray-200 bg-white md:w-80"
    >
      {/* On a short screen (a phone sideways) with one pane shown, the title, the filter, the tools (one line that scrolls sideways) and the bulk button share one line. */}
      <header className="flex flex-col gap-2 border-b border-gray-200 p-3 short:max-md:grid short:max-md:grid-cols-[auto_minmax(7rem,1fr)_minmax(0,1fr)_auto] short:max-md:items-center short:max-md:gap-x-3 short:gap-y-1 short:py-0.5">
        <div className="flex items-center justify-between gap-2">
          <h2 id="inbox-heading" className="text-lg font-semibold short:text-base">
            <Trans>Messages</Trans>
          </h2>
          <button
            type="button"
            data-testid="inbox-refresh"
            onClick={() => void list.refresh()}
            disabled={list.refreshing}
            aria-label={t`Refresh conversations`}
            title={t`Refresh conversations`}
            className="-my-1.5 grid size-11 place-items-center rounded-md text-gray-600 hover:bg-gray-100 disabled:opacity-50"
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
        <SearchBox onQuery={searchList} />
        {/* On a short screen the list's filters and the tools are one line that scrolls sideways. */}
        <div
          className="flex min-w-0 flex-col gap-2 short:flex-row short:overflow-x-auto"
          data-truncate="on a short screen the filters scroll sideways"
        >
          <ListFilters filter={listFilter} sort={sort} counts={counts} onFilter={onFilter} onSort={onSort} />
          {tools}
        </div>
        <SyncStatus sync={list.sync} />
        <button
          type="button"
          data-testid="bulk-toggle"
          aria-pressed={bulkOpen}
          onClick={onToggleBulk}
          className={`min-h-11 rounded-md px-3 py-1.5 text-sm font-medium ${bulkOpen ? 'bg-brand-700 text-white' : 'bg-brand-600 text-white hover:bg-brand-700'}`}
        >
          <Trans>Send new bulk message</Trans>
        </button>
      </header>
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
      />
      {footer}
    </section>
  )
}

/**
 * The list's filters with their counts (All, Unread, Needs reply, Window closed) and the "window closing
 * first" sort, on one line that the inbox's chip row scrolls sideways (docs/product-rules.md#who-is-waiting).
 */
import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { formatNumber } from '../../../core/format/numbers.ts'
import { FILTERS, type ListFilter, type ListSort, sameFilter } from '../model/list-view.ts'

export interface ListFiltersProps {
  filter: ListFilter
  sort: ListSort
  counts: Record<ListFilter['kind'], number>
  onFilter: (filter: ListFilter) => void
  onSort: (sort: ListSort) => void
  /** "Window closed" is offered: under the legacy policy every waiting customer can be answered. */
  windowClosed: boolean
}

function filterName(filter: ListFilter): ReactNode {
  switch (filter.kind) {
    case 'all':
      return <Trans>All</Trans>
    case 'unread':
      return <Trans>Unread</Trans>
    case 'needs_reply':
      return <Trans>Needs reply</Trans>
    case 'window_closed':
      return <Trans>Window closed</Trans>
  }
}

const chip =
  'inline-flex min-h-11 shrink-0 items-center gap-1 rounded-full border px-2.5 text-sm whitespace-nowrap'
const on = 'border-brand-600 bg-brand-600 text-white'
const off = 'border-gray-300 bg-white text-slate-800 hover:bg-gray-100'

export function ListFilters({ filter, sort, counts, onFilter, onSort, windowClosed }: ListFiltersProps) {
  const offered = windowClosed ? FILTERS : FILTERS.filter((f) => f.kind !== 'window_closed')
  return (
    <div data-testid="list-filters" className="flex shrink-0 flex-nowrap gap-1.5">
      {offered.map((f) => {
        const chosen = sameFilter(f, filter)
        return (
          <button
            key={f.kind}
            type="button"
            data-testid={`list-filter-${f.kind}`}
            aria-pressed={chosen}
            onClick={() => onFilter(f)}
            className={`${chip} ${chosen ? on : off}`}
          >
            <span>{filterName(f)}</span>
            {/* Room for four digits and their group separator (1,234) from the start: a count arriving never
                widens a chip, moves the chips after it or wraps them onto another line. */}
            <span data-testid="list-filter-count" className="min-w-[5ch] text-start tabular-nums opacity-80">
              {formatNumber(counts[f.kind])}
            </span>
          </button>
        )
      })}
      {/* The order says its words: a clock alone did not tell what it sorts by. */}
      <button
        type="button"
        data-testid="list-sort-window"
        aria-pressed={sort === 'window'}
        onClick={() => onSort(sort === 'window' ? 'newest' : 'window')}
        className={`${chip} ${sort === 'window' ? on : off}`}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4 shrink-0">
          <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm.75 4a.75.75 0 0 0-1.5 0v4c0 .2.08.39.22.53l2.5 2.5a.75.75 0 1 0 1.06-1.06l-2.28-2.28V6Z" />
        </svg>
        <span>
          <Trans>Window closing first</Trans>
        </span>
      </button>
    </div>
  )
}

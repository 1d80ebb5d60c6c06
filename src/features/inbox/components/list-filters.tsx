/**
 * The list's filters with their counts (All, Unread, Needs reply) and the "window closing first" sort; they
 * wrap onto a second line when the words do not fit one (docs/product-rules.md#who-is-waiting).
 */
import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { formatNumber } from '../../../shared/format/numbers.ts'
import { FILTERS, type ListFilter, type ListSort, sameFilter } from '../model/list-view.ts'

export interface ListFiltersProps {
  filter: ListFilter
  sort: ListSort
  counts: Record<ListFilter['kind'], number>
  onFilter: (filter: ListFilter) => void
  onSort: (sort: ListSort) => void
}

function filterName(filter: ListFilter): ReactNode {
  switch (filter.kind) {
    case 'all':
      return <Trans>All</Trans>
    case 'unread':
      return <Trans>Unread</Trans>
    case 'needs_reply':
      return <Trans>Needs reply</Trans>
  }
}

const chip =
  'inline-flex min-h-11 shrink-0 items-center gap-1 rounded-full border px-2.5 text-sm whitespace-nowrap'
const on = 'border-brand-600 bg-brand-600 text-white'
const off = 'border-gray-300 bg-white text-gray-800 hover:bg-gray-100'

export function ListFilters({ filter, sort, counts, onFilter, onSort }: ListFiltersProps) {
  return (
    <div data-testid="list-filters" className="flex flex-wrap gap-1.5 short:max-md:col-span-3">
      {FILTERS.map((f) => {
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
            <span data-testid="list-filter-count" className="tabular-nums opacity-80">
              {formatNumber(counts[f.kind])}
            </span>
          </button>
        )
      })}
      <button
        type="button"
        data-testid="list-sort-window"
        aria-pressed={sort === 'window'}
        onClick={() => onSort(sort === 'window' ? 'newest' : 'window')}
        className={`${chip} ${sort === 'window' ? on : off}`}
      >
        <Trans>Window closing first</Trans>
      </button>
    </div>
  )
}

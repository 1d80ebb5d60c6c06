/** The left column: "Messages" header, the filter, the bulk toggle and the conversation list. */
import { useMemo, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import type { CachedConversation } from '../../../shared/db/db.ts'
import { filterConversations } from '../model/filter.ts'
import type { ConversationListState } from '../api/use-conversation-list.ts'
import { ConversationList } from './conversation-list.tsx'

export interface InboxColumnProps {
  list: ConversationListState
  selectedId?: string
  bulkOpen: boolean
  pictureUrl: (customerId: string) => string | undefined
  onSelect: (row: CachedConversation) => void
  onToggleBulk: () => void
}

export function InboxColumn({
  list,
  selectedId,
  bulkOpen,
  pictureUrl,
  onSelect,
  onToggleBulk,
}: InboxColumnProps) {
  const { t } = useLingui()
  const [filter, setFilter] = useState('')
  const shown = useMemo(() => filterConversations(list.rows, filter), [list.rows, filter])
  return (
    <section
      aria-labelledby="inbox-heading"
      className="flex min-h-0 w-full flex-col border-e border-gray-200 bg-white md:w-80"
    >
      <header className="flex flex-col gap-2 border-b border-gray-200 p-3">
        <h2 id="inbox-heading" className="text-lg font-semibold">
          <Trans>Messages</Trans>
        </h2>
        <input
          type="search"
          data-testid="conversation-filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder={t`Search conversations`}
          aria-label={t`Search conversations`}
          className="w-full rounded-md border border-gray-300 px-3 py-1.5 text-sm"
        />
        <button
          type="button"
          data-testid="bulk-toggle"
          aria-pressed={bulkOpen}
          onClick={onToggleBulk}
          className={`rounded-md px-3 py-1.5 text-sm font-medium ${bulkOpen ? 'bg-brand-700 text-white' : 'bg-brand-600 text-white hover:bg-brand-700'}`}
        >
          <Trans>Send new bulk message</Trans>
        </button>
      </header>
      <ConversationList
        rows={shown}
        selectedId={selectedId}
        loading={list.loading || (list.initialising && list.rows.length === 0)}
        exhausted={list.exhausted}
        filtering={filter.trim() !== ''}
        pictureUrl={pictureUrl}
        onSelect={onSelect}
        onEndReached={list.loadMore}
      />
    </section>
  )
}

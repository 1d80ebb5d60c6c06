import { memo } from 'react'
import { useLingui } from '@lingui/react/macro'
import { UnreadBadge } from '../../../shared/ui/unread-badge.tsx'
import type { CachedConversation } from '../../../shared/db/db.ts'
import { formatRelativeTime } from '../../../shared/format/index.ts'
import { snippetPreview } from '../model/conversation.ts'
import { Avatar } from '../../../shared/ui/avatar.tsx'

export interface ConversationRowProps {
  row: CachedConversation
  selected: boolean
  pictureUrl?: string
  now: number
  /** Set when another row has the same name: what tells this customer apart ("#4821"). */
  tell?: string
  onSelect: (row: CachedConversation) => void
  /** Set while rows are being selected: whether this one is picked (shown by a tick over the photo). */
  picked?: boolean
}

export const ConversationRow = memo(function ConversationRow({
  row,
  selected,
  pictureUrl,
  now,
  tell,
  onSelect,
  picked,
}: ConversationRowProps) {
  const { i18n } = useLingui()
  return (
    <button
      type="button"
      data-testid="conversation-row"
      data-conversation-id={row.id}
      aria-current={selected && picked === undefined ? 'true' : undefined}
      aria-pressed={picked}
      onClick={() => onSelect(row)}
      className={`flex h-full w-full items-center gap-3 px-3 text-start hover:bg-brand-50 ${(picked ?? selected) ? 'bg-brand-100' : ''}`}
    >
      {picked === undefined ? (
        <Avatar src={pictureUrl} />
      ) : (
        <span
          aria-hidden="true"
          data-testid="conversation-pick"
          className={`grid size-10 shrink-0 place-items-center rounded-full border-2 ${picked ? 'border-brand-600 bg-brand-600 text-white' : 'border-gray-400 bg-white'}`}
        >
          {picked ? '✓' : ''}
        </span>
      )}
      <span className="min-w-0 flex-1">
        <span className="flex items-baseline justify-between gap-2">
          <span
            data-testid="conversation-name"
            dir="auto"
            data-truncate="a long name is cut in the list; the chat header shows it whole"
            className={`truncate leading-[normal] ${row.unreadCount > 0 ? 'font-semibold' : 'font-medium'}`}
          >
            {row.customerName}
          </span>
          {tell ? (
            <span className="shrink-0 text-xs text-gray-600 tabular-nums" data-testid="conversation-tell">
              {tell}
            </span>
          ) : null}
          <time
            className="ms-auto shrink-0 text-xs text-gray-600"
            dateTime={new Date(row.updatedAt).toISOString()}
          >
            {formatRelativeTime(row.updatedAt, i18n.locale, now)}
          </time>
        </span>
        <span className="flex items-center justify-between gap-2">
          <span
            data-testid="conversation-snippet"
            dir="auto"
            data-truncate="the snippet is the start of the last message"
            className="block min-w-0 truncate text-sm leading-[normal] text-gray-600"
          >
            {snippetPreview(row.snippet)}
          </span>
          {row.unreadCount > 0 ? <UnreadBadge count={row.unreadCount} testId="conversation-unread" /> : null}
        </span>
      </span>
    </button>
  )
})

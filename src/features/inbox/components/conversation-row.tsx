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
}

export const ConversationRow = memo(function ConversationRow({
  row,
  selected,
  pictureUrl,
  now,
  tell,
  onSelect,
}: ConversationRowProps) {
  const { i18n } = useLingui()
  return (
    <button
      type="button"
      data-testid="conversation-row"
      data-conversation-id={row.id}
      aria-current={selected ? 'true' : undefined}
      onClick={() => onSelect(row)}
      className={`flex h-full w-full items-center gap-3 px-3 text-start hover:bg-brand-50 ${selected ? 'bg-brand-100' : ''}`}
    >
      <Avatar src={pictureUrl} />
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

import { memo } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { UnreadBadge } from '../../../shared/ui/unread-badge.tsx'
import type { CachedConversation } from '../../../device/db/db.ts'
import { type InboxRow, windowLeft } from '../model/list-view.ts'
import { formatRelativeTime } from '../../../core/format/index.ts'
import { snippetPreview } from '../model/conversation.ts'
import { Avatar } from '../../../shared/ui/avatar.tsx'

/** "3 h left" to answer inside the 24-hour window; minutes in the last hour. */
function WindowLeft({ ms }: { ms: number }) {
  const hours = Math.floor(ms / 3_600_000)
  const minutes = Math.max(1, Math.floor(ms / 60_000))
  return (
    <span
      data-testid="conversation-window-left"
      className="shrink-0 text-xs font-medium whitespace-nowrap text-amber-800"
    >
      {hours >= 1 ? (
        <Plural value={hours} one="# h left" other="# h left" />
      ) : (
        <Plural value={minutes} one="# min left" other="# min left" />
      )}
    </span>
  )
}

export interface ConversationRowProps {
  row: InboxRow
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
  const left = windowLeft(row, now)
  return (
    <button
      type="button"
      data-testid="conversation-row"
      data-conversation-id={row.id}
      data-needs-reply={row.needsReply ? 'true' : undefined}
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
          {row.needsReply ? (
            <span
              data-testid="conversation-needs-reply"
              className="shrink-0 rounded bg-amber-100 px-1.5 text-xs font-medium whitespace-nowrap text-amber-900"
            >
              <Trans>Needs reply</Trans>
            </span>
          ) : null}
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
          {left !== undefined ? <WindowLeft ms={left} /> : null}
          {row.unreadCount > 0 ? <UnreadBadge count={row.unreadCount} testId="conversation-unread" /> : null}
        </span>
        {row.broadcastText !== undefined ? (
          <span
            data-testid="conversation-broadcast"
            data-truncate="the page's own broadcast, shown whole in the chat"
            className="block truncate text-xs leading-[normal] text-gray-600"
          >
            <Trans>
              You sent: <bdi dir="auto">{snippetPreview(row.broadcastText)}</bdi>
            </Trans>
          </span>
        ) : null}
      </span>
    </button>
  )
})

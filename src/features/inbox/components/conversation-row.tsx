import { memo } from 'react'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { UnreadBadge } from '../../../shared/ui/unread-badge.tsx'
import type { CachedConversation } from '../../../device/db/db.ts'
import { type InboxRow, type Waiting, waitingFor, windowLeft } from '../model/list-view.ts'
import type { WindowOptions } from '../../../core/policy/window.ts'
import { formatRelativeTime } from '../../../core/format/index.ts'
import { snippetPreview } from '../model/conversation.ts'
import { Avatar } from '../../../shared/ui/avatar.tsx'

/** What beside the name (or the snippet) is cut at its end, never pushed over its neighbour, when room runs out. */
const givesWay = 'min-w-0 truncate whitespace-nowrap'

/** "3 h left" to answer inside the 24-hour window; minutes in the last hour. */
function WindowLeft({ ms }: { ms: number }) {
  const hours = Math.floor(ms / 3_600_000)
  const minutes = Math.max(1, Math.floor(ms / 60_000))
  return (
    <span
      data-testid="conversation-window-left"
      data-truncate="the time left gives its room to the snippet's line"
      className={`${givesWay} text-xs font-medium text-amber-800`}
    >
      {hours >= 1 ? (
        <Plural value={hours} one="# h left" other="# h left" />
      ) : (
        <Plural value={minutes} one="# min left" other="# min left" />
      )}
    </span>
  )
}

/** Which half of the to-do a waiting customer is in: a reply reaches them ("Needs reply"), or it no longer does. */
function WaitingMark({ waiting }: { waiting: Waiting }) {
  const reply = waiting === 'reply'
  return (
    <span
      data-testid={reply ? 'conversation-needs-reply' : 'conversation-window-closed'}
      data-truncate="the mark gives its room to the snippet's line"
      className={`${givesWay} rounded px-1.5 text-xs font-medium ${reply ? 'bg-amber-100 text-amber-900' : 'bg-gray-100 text-gray-700'}`}
    >
      {reply ? <Trans>Needs reply</Trans> : <Trans>Window closed</Trans>}
    </span>
  )
}

export interface ConversationRowProps {
  row: InboxRow
  selected: boolean
  pictureUrl?: string
  now: number
  /** The page's messaging policy: a waiting customer no reply can reach is marked "Window closed". */
  windowOptions: WindowOptions
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
  windowOptions,
  tell,
  onSelect,
  picked,
}: ConversationRowProps) {
  const { i18n } = useLingui()
  const left = windowLeft(row, now)
  const waiting = waitingFor(row, now, windowOptions)
  return (
    <button
      type="button"
      data-testid="conversation-row"
      data-conversation-id={row.id}
      data-needs-reply={row.needsReply ? 'true' : undefined}
      data-waiting={waiting}
      aria-current={selected && picked === undefined ? 'true' : undefined}
      aria-pressed={picked}
      onClick={() => onSelect(row)}
      className={`flex h-full w-full items-center gap-2 px-2 text-start md:gap-3 md:px-3 hover:bg-brand-50 ${(picked ?? selected) ? 'bg-brand-100' : ''}`}
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
      {/* The name gives way first, down to eight letters (or all of a shorter name); only then do the tag,
          the time and the marks give way, each cut at its own end: nothing ever spills over its neighbour. */}
      <span className="min-w-0 flex-1">
        <span className="flex items-baseline gap-1.5">
          <span
            data-testid="conversation-name"
            dir="auto"
            data-truncate="a long name is cut in the list; the chat header shows it whole"
            className={`min-w-[min(8ch,100%)] shrink-[999] truncate leading-[normal] ${row.unreadCount > 0 ? 'font-semibold' : 'font-medium'}`}
          >
            {row.customerName}
          </span>
          {tell ? (
            <span
              className={`${givesWay} text-xs text-gray-600 tabular-nums`}
              data-testid="conversation-tell"
              data-truncate="the tag gives its room to the name"
            >
              {tell}
            </span>
          ) : null}
          <time
            className={`ms-auto ${givesWay} text-xs text-gray-600`}
            data-truncate="the time gives its room to the name"
            dateTime={new Date(row.updatedAt).toISOString()}
          >
            {formatRelativeTime(row.updatedAt, i18n.locale, now, 'narrow')}
          </time>
        </span>
        <span className="flex items-center gap-1.5">
          <span
            data-testid="conversation-snippet"
            dir="auto"
            data-truncate="the snippet is the start of the last message"
            className="block min-w-0 flex-1 truncate text-sm leading-[normal] text-gray-600"
          >
            {snippetPreview(row.snippet)}
          </span>
          {waiting ? <WaitingMark waiting={waiting} /> : null}
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

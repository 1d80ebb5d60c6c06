import type { ReactNode } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { formatLongDate } from '../../../core/format/index.ts'
import { Avatar } from '../../../shared/ui/avatar.tsx'

export interface ChatHeaderProps {
  name: string
  pictureUrl?: string
  profileUrl?: string
  updatedAt: number
  onBack?: () => void
  /** What the page adds at the header's end (the customer's labels). */
  extra?: ReactNode
  /** Shown while the conversation needs a reply: marks it done for everyone who manages the page. */
  onMarkDone?: () => void
}

export function ChatHeader({
  name,
  pictureUrl,
  profileUrl,
  updatedAt,
  onBack,
  extra,
  onMarkDone,
}: ChatHeaderProps) {
  const { i18n, t } = useLingui()
  const date = (
    <time className="text-xs text-gray-500 short:shrink-0" dateTime={new Date(updatedAt).toISOString()}>
      {formatLongDate(updatedAt, i18n.locale)}
    </time>
  )
  return (
    <header className="relative flex items-center gap-2 border-b border-gray-200 px-2 py-1.5 short:py-0.5 md:gap-3 md:p-3">
      {onBack ? (
        <button
          type="button"
          onClick={onBack}
          aria-label={t`Back to conversations`}
          className="grid size-11 shrink-0 place-items-center rounded-md text-lg hover:bg-gray-100 md:hidden"
        >
          <span aria-hidden="true" className="inline-block rtl:rotate-180">
            ←
          </span>
        </button>
      ) : null}
      <Avatar src={pictureUrl} className="short:size-7!" />
      {/* The name and the date are one target (the conversation on the network); on a short screen one line. */}
      {profileUrl ? (
        <a
          href={profileUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="group flex min-h-11 min-w-24 flex-1 flex-col justify-center short:flex-row short:items-baseline short:gap-2"
        >
          {/* The name is never cut on a phone held upright: a long one wraps (the list cuts it and leaves it whole here); on a short screen the header keeps one line. */}
          <span
            data-testid="chat-customer-name"
            dir="auto"
            className="block font-semibold leading-[normal] [overflow-wrap:anywhere] short:truncate group-hover:underline"
          >
            {name}
          </span>
          {date}
        </a>
      ) : (
        <div className="flex min-h-11 min-w-24 flex-1 flex-col justify-center short:flex-row short:items-baseline short:gap-2">
          <p
            data-testid="chat-customer-name"
            dir="auto"
            className="font-semibold leading-[normal] [overflow-wrap:anywhere] short:truncate"
          >
            {name}
          </p>
          {date}
        </div>
      )}
      {onMarkDone ? (
        <button
          type="button"
          data-testid="chat-mark-done"
          onClick={onMarkDone}
          className="ms-auto inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-1 rounded-md border border-gray-300 px-2.5 text-sm font-medium whitespace-nowrap text-slate-800 hover:bg-gray-100"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
            <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" />
          </svg>
          {/* On a phone the name keeps the room: the button is its mark, its words are for screen readers. */}
          <span className="max-md:sr-only">
            <Trans>Mark as done</Trans>
          </span>
        </button>
      ) : null}
      {extra}
    </header>
  )
}

import type { ReactNode } from 'react'
import { useLingui } from '@lingui/react/macro'
import { formatLongDate } from '../../../shared/format/index.ts'
import { Avatar } from '../../../shared/ui/avatar.tsx'

export interface ChatHeaderProps {
  name: string
  pictureUrl?: string
  profileUrl?: string
  updatedAt: number
  onBack?: () => void
  /** What the page adds at the header's end (the customer's labels). */
  extra?: ReactNode
}

export function ChatHeader({ name, pictureUrl, profileUrl, updatedAt, onBack, extra }: ChatHeaderProps) {
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
          className="group flex min-h-11 min-w-0 flex-col justify-center short:flex-row short:items-baseline short:gap-2"
        >
          <span
            data-testid="chat-customer-name"
            dir="auto"
            className="block truncate font-semibold group-hover:underline"
          >
            {name}
          </span>
          {date}
        </a>
      ) : (
        <div className="flex min-h-11 min-w-0 flex-col justify-center short:flex-row short:items-baseline short:gap-2">
          <p data-testid="chat-customer-name" dir="auto" className="truncate font-semibold">
            {name}
          </p>
          {date}
        </div>
      )}
      {extra}
    </header>
  )
}

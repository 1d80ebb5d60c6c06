import { useLingui } from '@lingui/react/macro'
import { formatLongDate } from '../../../shared/format/index.ts'
import { Avatar } from '../../../shared/ui/avatar.tsx'

export interface ChatHeaderProps {
  name: string
  pictureUrl?: string
  profileUrl?: string
  updatedAt: number
  onBack?: () => void
}

export function ChatHeader({ name, pictureUrl, profileUrl, updatedAt, onBack }: ChatHeaderProps) {
  const { i18n, t } = useLingui()
  return (
    <header className="flex items-center gap-3 border-b border-gray-200 p-3 short:gap-2 short:py-1">
      {onBack ? (
        <button
          type="button"
          onClick={onBack}
          aria-label={t`Back to conversations`}
          className="rounded-md px-2 py-1 text-lg short:py-0 md:hidden"
        >
          <span aria-hidden="true" className="inline-block rtl:rotate-180">
            ←
          </span>
        </button>
      ) : null}
      <Avatar src={pictureUrl} className="short:size-7!" />
      {/* One line on a short screen: the name, then the date beside it. */}
      <div className="min-w-0 short:flex short:items-baseline short:gap-2">
        {profileUrl ? (
          <a
            href={profileUrl}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="chat-customer-name"
            dir="auto"
            className="block truncate font-semibold hover:underline"
          >
            {name}
          </a>
        ) : (
          <p data-testid="chat-customer-name" dir="auto" className="truncate font-semibold">
            {name}
          </p>
        )}
        <time className="text-xs text-gray-500 short:shrink-0" dateTime={new Date(updatedAt).toISOString()}>
          {formatLongDate(updatedAt, i18n.locale)}
        </time>
      </div>
    </header>
  )
}

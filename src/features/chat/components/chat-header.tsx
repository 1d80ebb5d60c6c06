import { useLingui } from '@lingui/react/macro'
import { formatLongDate } from '../../../shared/format/index.ts'
import { Avatar } from './avatar.tsx'

export function ChatHeader({
  name,
  pictureUrl,
  profileUrl,
  updatedAt,
}: {
  name: string
  pictureUrl?: string
  profileUrl: string
  updatedAt: number
}) {
  const { i18n } = useLingui()
  return (
    <header className="flex items-center gap-3 border-b border-gray-200 p-3">
      <Avatar src={pictureUrl} name={name} />
      <div className="min-w-0">
        <a
          href={profileUrl}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="chat-customer-name"
          className="block truncate font-semibold hover:underline"
        >
          {name}
        </a>
        <time className="text-xs text-gray-500" dateTime={new Date(updatedAt).toISOString()}>
          {formatLongDate(updatedAt, i18n.locale)}
        </time>
      </div>
    </header>
  )
}

/**
 * Below 1024 px, where the page sidebar is hidden, this line says which page's inbox is open and how many of
 * its messages are unread. On a short screen (a phone sideways) it is one slim line, and gives its room to an
 * open chat or bulk wizard where only that pane shows.
 */
import type { ReactNode } from 'react'
import { PageAvatar } from '../../../shared/ui/page-avatar.tsx'
import { UnreadBadge } from '../../../shared/ui/unread-badge.tsx'
import type { PageSummary } from './page-sidebar.tsx'

export function PageHeader({
  page,
  unread = 0,
  paneOpen = false,
  action,
}: {
  page: PageSummary
  unread?: number
  /** A chat or the bulk wizard fills the screen below `md` (the list hidden). */
  paneOpen?: boolean
  /** The page's own settings entry (marketing messages), at the line's end. */
  action?: ReactNode
}) {
  return (
    <header
      data-testid="page-header"
      className={`flex shrink-0 items-center gap-2 border-b border-gray-200 bg-gray-50 px-3 py-1 short:py-0 lg:hidden phone-chat:hidden ${
        paneOpen ? 'short:max-md:hidden' : ''
      }`}
    >
      <PageAvatar src={page.pictureUrl} name={page.name} className="size-8 short:size-6" />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold">
          <span
            data-testid="page-header-name"
            dir="auto"
            className="inline-block max-w-full truncate align-top"
          >
            {page.name}
          </span>
        </p>
        {/* The line is there before the page's details arrive, so the header keeps its height. */}
        <p
          data-testid={page.category ? 'page-header-category' : undefined}
          aria-hidden={page.category ? undefined : true}
          className="truncate text-xs text-gray-500 short:hidden"
        >
          {page.category || '\u00a0'}
        </p>
      </div>
      {unread > 0 ? <UnreadBadge count={unread} testId="page-header-unread" /> : null}
      {action}
    </header>
  )
}

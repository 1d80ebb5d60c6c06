/** The page's own sidebar: picture, name, category and the "Messages" item with the page's unread count. */
import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import type { PageSummary } from '../../../device/db/db.ts'
import { PageAvatar } from '../../../shared/ui/page-avatar.tsx'
import { UnreadBadge } from '../../../shared/ui/unread-badge.tsx'

export type { PageSummary }

/** `unread`: unread messages over the page's cached conversations. */
/** `extra`: the page's other items under "Messages" (its marketing messages). */
export function PageSidebar({
  page,
  unread = 0,
  extra,
}: {
  page: PageSummary
  unread?: number
  extra?: ReactNode
}) {
  return (
    <nav
      aria-label={page.name}
      data-testid="page-sidebar"
      className="hidden w-48 shrink-0 flex-col gap-3 border-e border-gray-200 bg-gray-50 p-3 lg:flex"
    >
      <div className="flex items-center gap-2">
        <PageAvatar src={page.pictureUrl} name={page.name} className="size-12" />
        <div className="min-w-0">
          {/* The name keeps its own direction (dir="auto"): a Latin name in Urdu is cut at its end, not its start. */}
          <p className="font-semibold">
            <span data-testid="page-name" dir="auto" className="inline-block max-w-full truncate align-top">
              {page.name}
            </span>
          </p>
          {page.category ? <p className="truncate text-xs text-gray-500">{page.category}</p> : null}
        </div>
      </div>
      <span
        aria-current="page"
        className="flex items-center justify-between gap-2 rounded-md bg-brand-100 px-3 py-2 text-sm font-medium text-brand-800"
      >
        <Trans>Messages</Trans>
        {unread > 0 ? <UnreadBadge count={unread} testId="page-unread" /> : null}
      </span>
      {extra}
    </nav>
  )
}

/** The page's own sidebar: picture, name, category and the "Messages" item. */
import { Trans } from '@lingui/react/macro'
import type { PageSummary } from '../../../shared/db/db.ts'
import { Avatar } from '../../../shared/ui/avatar.tsx'

export type { PageSummary }

export function PageSidebar({ page }: { page: PageSummary }) {
  return (
    <nav
      aria-label={page.name}
      data-testid="page-sidebar"
      className="hidden w-48 shrink-0 flex-col gap-3 border-e border-gray-200 bg-gray-50 p-3 lg:flex"
    >
      <div className="flex items-center gap-2">
        <Avatar src={page.pictureUrl} name={page.name} size={48} />
        <div className="min-w-0">
          <p data-testid="page-name" className="truncate font-semibold">
            {page.name}
          </p>
          {page.category ? <p className="truncate text-xs text-gray-500">{page.category}</p> : null}
        </div>
      </div>
      <span
        aria-current="page"
        className="rounded-md bg-brand-100 px-3 py-2 text-sm font-medium text-brand-800"
      >
        <Trans>Messages</Trans>
      </span>
    </nav>
  )
}

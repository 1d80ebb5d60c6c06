/** One page on the home grid: connected pages link to their inbox, others offer "Connect page". */
import { Plural, Trans } from '@lingui/react/macro'
import { useId } from 'react'
import type { PageStanding } from '../../../core/contracts/api.ts'
import type { Account } from '../../../core/graph/types.ts'
import { loginWithSdk } from '../../../shared/session/actions.ts'
import { PageAvatar } from '../../../shared/ui/page-avatar.tsx'
import { PathLink } from '../../../shared/ui/path-link.tsx'
import { UnreadBadge } from '../../../shared/ui/unread-badge.tsx'

/** What a card says of a page that cannot be used, under its name. */
function StandingNote({ standing }: { standing: PageStanding }) {
  return (
    <p data-testid="page-card-standing" className="text-sm font-medium text-red-700">
      {standing === 'banned' ? (
        <Trans>Banned from Pagecast. Contact support.</Trans>
      ) : (
        <Trans>Your access to this page ended. Open it to connect it again.</Trans>
      )}
    </p>
  )
}

/**
 * `connected`: the card links to the page's inbox (by default when the page has a token); `unread`: the page's
 * unread messages (0 shows nothing); `standing`: the page is banned, or the owner's access to it revoked, and
 * the card says so.
 */
export function PageCard({
  account,
  connected = Boolean(account.access_token),
  unread = 0,
  standing,
}: {
  account: Account
  connected?: boolean
  unread?: number
  standing?: PageStanding
}) {
  const nameId = useId()
  const fans = account.fan_count ?? 0
  const body = (
    <>
      <PageAvatar src={account.picture?.data.url} name={account.name} className="size-12 sm:size-14" />
      <div className="min-w-0 flex-1">
        <p
          id={nameId}
          dir="auto"
          className="line-clamp-2 font-semibold break-words text-slate-900"
          data-truncate="a page name longer than two lines is cut at the end of the second"
        >
          {account.name}
        </p>
        <p className="text-sm text-slate-500">
          <Plural value={fans} one="# follower" other="# followers" />
        </p>
        {standing ? <StandingNote standing={standing} /> : null}
        {account.category && !standing ? (
          <p
            className="truncate text-xs text-slate-500"
            data-truncate="the category is a hint, cut on a narrow card"
          >
            {account.category}
          </p>
        ) : null}
      </div>
    </>
  )
  if (connected) {
    return (
      <PathLink
        href={`/${account.id}`}
        data-testid="page-card"
        data-standing={standing}
        className="flex items-center gap-3 rounded-xl bg-white p-3 sm:gap-4 sm:p-4 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md hover:ring-brand-500"
      >
        {body}
        {unread > 0 && standing !== 'banned' ? (
          <UnreadBadge count={unread} testId="page-card-unread" />
        ) : null}
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-5 text-slate-400 rtl:-scale-x-100"
          fill="currentColor"
        >
          <path d="M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 0 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4Z" />
        </svg>
      </PathLink>
    )
  }
  return (
    <div
      data-testid="page-card"
      data-connected="false"
      className="flex flex-wrap items-center justify-end gap-3 rounded-xl bg-slate-100 p-3 ring-1 ring-slate-200 sm:gap-4 sm:p-4"
    >
      <div className="flex min-w-[11rem] flex-1 items-center gap-3 grayscale sm:gap-4 [&_p]:text-slate-600">
        {body}
      </div>
      <button
        type="button"
        onClick={() => void loginWithSdk()}
        aria-describedby={nameId}
        className="min-h-11 rounded-lg border border-brand-600 bg-white px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50"
      >
        <Trans>Connect page</Trans>
      </button>
    </div>
  )
}

export function AddPageCard() {
  return (
    <button
      type="button"
      onClick={() => void loginWithSdk()}
      className="flex min-h-[5.5rem] items-center justify-center gap-3 rounded-xl border-2 border-dashed border-slate-300 bg-white/50 p-4 font-semibold text-slate-600 hover:border-brand-500 hover:text-brand-700"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
        <path d="M10 3a1 1 0 0 1 1 1v5h5a1 1 0 1 1 0 2h-5v5a1 1 0 1 1-2 0v-5H4a1 1 0 1 1 0-2h5V4a1 1 0 0 1 1-1Z" />
      </svg>
      <Trans>Add a new page</Trans>
    </button>
  )
}

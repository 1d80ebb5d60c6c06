/** Top bar: affiliate banner (hidden for referred users), support, message badge, avatar. */
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { SubscriptionState } from '../../../core/contracts/api.ts'
import type { Me } from '../../../core/graph/types.ts'
import { BrandMark } from '../../../shared/ui/brand-mark.tsx'
import { UserAvatar } from '../../../shared/ui/page-avatar.tsx'
import { useHeightVariable } from '../../../shared/ui/use-height-variable.ts'
import { MessageBadge } from './message-badge.tsx'

interface HeaderProps {
  user?: Me
  subscription?: SubscriptionState
  hasReferral: boolean
  supportUrl: string
  onOpenAccount: () => void
  onOpenAddons: () => void
}

export function Header({
  user,
  subscription,
  hasReferral,
  supportUrl,
  onOpenAccount,
  onOpenAddons,
}: HeaderProps) {
  const { t } = useLingui()
  // Notices stand below the header (its height as `--app-header-height`), never over its controls.
  const ref = useHeightVariable<HTMLElement>('--app-header-height')
  return (
    <header ref={ref} className="border-b border-slate-200 bg-white">
      {hasReferral ? null : (
        <Link
          to="/affiliates"
          data-testid="affiliate-banner"
          className="flex min-h-11 items-center justify-center bg-gradient-to-r from-brand-700 to-brand-500 px-4 py-1.5 phone-chat:hidden compact-inbox:hidden short:py-0.5 text-center text-xs font-medium sm:text-sm text-white hover:underline rtl:bg-gradient-to-l"
        >
          {/* One line on a short screen, still a target a thumb can hit. */}
          <span className="min-w-0 short:truncate">
            <Trans>Earn money recommending Pagecast: 20% of every purchase you refer</Trans>
          </span>
        </Link>
      )}
      <div className="flex h-14 items-center gap-2 px-3 short:h-10 sm:gap-3 sm:px-4 short:phone-chat:hidden">
        <Link
          to="/"
          className="flex min-h-11 min-w-11 items-center gap-2 font-bold text-slate-900"
          aria-label={t`Pagecast home`}
        >
          <BrandMark className="size-8 short:size-7" />
          <span className="hidden sm:inline">Pagecast</span>
        </Link>
        <div className="ms-auto flex items-center gap-2 sm:gap-3">
          {subscription ? <MessageBadge subscription={subscription} onClick={onOpenAddons} /> : null}
          <a
            href={supportUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-full border border-slate-300 px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
              <path d="M10 2C5.6 2 2 5.3 2 9.4c0 2.3 1.1 4.4 2.9 5.7V18l2.7-1.5c.8.2 1.6.3 2.4.3 4.4 0 8-3.3 8-7.4S14.4 2 10 2Zm.8 10-2-2.2L5 12l4.2-4.5 2 2.2L15 7.5Z" />
            </svg>
            <span className="hidden sm:inline">
              <Trans>Support</Trans>
            </span>
            <span className="sr-only sm:hidden">{t`Support`}</span>
          </a>
          <button
            type="button"
            onClick={onOpenAccount}
            aria-label={t`My subscription`}
            className="grid size-11 place-items-center rounded-full"
          >
            <UserAvatar src={user?.picture?.data.url} />
          </button>
        </div>
      </div>
    </header>
  )
}

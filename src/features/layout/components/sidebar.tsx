/** Collapsible sidebar: connected pages, the user section (language, logout). Collapsed by default. */
import { Trans, useLingui } from '@lingui/react/macro'
import { useRouterState } from '@tanstack/react-router'
import { chooseLocale } from '../../../i18n/activate.ts'
import type { Account, Me } from '../../../core/graph/types.ts'
import { LanguagePicker } from '../../../shared/ui/language-picker.tsx'
import { PageAvatar, UserAvatar } from '../../../shared/ui/page-avatar.tsx'
import { PathLink } from '../../../shared/ui/path-link.tsx'

interface SidebarProps {
  collapsed: boolean
  onToggle: () => void
  /** The pages on the rail: the connected ones (offline, those connected when the session was saved). */
  accounts: readonly Account[]
  user?: Me
  onLogout: () => void
  onOpenAccount: () => void
}

export function Sidebar({ collapsed, onToggle, accounts, user, onLogout, onOpenAccount }: SidebarProps) {
  const { t } = useLingui()
  const path = useRouterState({ select: (s) => s.location.pathname })
  // Collapsed on a phone the rail is 56 px, so a 360 px screen keeps 300 px for the page beside it.
  const tight = collapsed ? 'max-sm:m-1.5' : ''
  const tightPad = collapsed ? 'max-sm:px-1' : ''
  return (
    <aside
      data-testid="sidebar"
      data-collapsed={collapsed}
      aria-label={t`Sidebar`}
      className={`flex shrink-0 flex-col border-e border-slate-200 bg-white transition-[width] phone-chat:hidden ${collapsed ? 'w-16 max-sm:w-14' : 'w-64 max-sm:fixed max-sm:inset-y-0 max-sm:start-0 max-sm:z-40 max-sm:shadow-xl'}`}
    >
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={!collapsed}
        aria-label={collapsed ? t`Expand sidebar` : t`Collapse sidebar`}
        className={`m-3 grid size-11 place-items-center rounded-lg text-slate-600 hover:bg-slate-100 ${tight}`}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className={`size-5 ${collapsed ? 'rtl:-scale-x-100' : '-scale-x-100 rtl:scale-x-100'}`}
          fill="currentColor"
        >
          <path d="M3 4a1 1 0 0 1 1-1h1a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1Zm6.3 1.3a1 1 0 0 1 1.4 0l4 4a1 1 0 0 1 0 1.4l-4 4a1 1 0 0 1-1.4-1.4l2.3-2.3H8a1 1 0 1 1 0-2h3.6L9.3 6.7a1 1 0 0 1 0-1.4Z" />
        </svg>
      </button>
      <nav aria-label={t`Connected pages`} className={`flex-1 overflow-y-auto px-2 ${tightPad}`}>
        {collapsed ? null : (
          <p className="px-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <Trans>Pages</Trans>
          </p>
        )}
        <ul className="space-y-1">
          {accounts.map((a) => {
            const current = path === `/${a.id}`
            return (
              <li key={a.id}>
                <PathLink
                  href={`/${a.id}`}
                  title={a.name}
                  aria-current={current ? 'page' : undefined}
                  className={`flex items-center gap-3 rounded-lg p-2 text-sm font-medium ${current ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`}
                >
                  <PageAvatar src={a.picture?.data.url} name={a.name} className="size-8" />
                  <span dir="auto" className={collapsed ? 'sr-only' : 'truncate'}>
                    {a.name}
                  </span>
                </PathLink>
              </li>
            )
          })}
        </ul>
      </nav>
      <div className={`space-y-2 border-t border-slate-200 p-2 ${tightPad}`} data-testid="user-section">
        <button
          type="button"
          onClick={onOpenAccount}
          className="flex w-full items-center gap-3 rounded-lg p-2 text-start text-sm hover:bg-slate-100"
          aria-label={collapsed ? t`My subscription` : undefined}
        >
          <UserAvatar src={user?.picture?.data.url} className="size-8" />
          <span className={collapsed ? 'sr-only' : 'min-w-0 flex-1'}>
            <span dir="auto" className="block truncate font-semibold text-slate-900">
              {user?.name}
            </span>
            <span className="block text-xs text-slate-500">
              <Trans>My subscription</Trans>
            </span>
          </span>
        </button>
        {collapsed ? null : <LanguagePicker onChoose={chooseLocale} className="px-2" />}
        <button
          type="button"
          onClick={onLogout}
          className="flex min-h-11 w-full items-center gap-3 rounded-lg p-2 text-sm font-medium text-slate-700 hover:bg-red-50 hover:text-red-700"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="size-5 shrink-0 ms-1.5 rtl:-scale-x-100"
            fill="currentColor"
          >
            <path d="M4 3a1 1 0 0 0-1 1v12a1 1 0 0 0 1 1h6a1 1 0 1 0 0-2H5V5h5a1 1 0 1 0 0-2Zm9.3 3.3a1 1 0 0 1 1.4 0l3 3a1 1 0 0 1 0 1.4l-3 3a1 1 0 0 1-1.4-1.4l1.3-1.3H8a1 1 0 1 1 0-2h6.6l-1.3-1.3a1 1 0 0 1 0-1.4Z" />
          </svg>
          <span className={collapsed ? 'sr-only' : ''}>
            <Trans>Log out</Trans>
          </span>
        </button>
      </div>
    </aside>
  )
}

/** The shared frame of every signed-in screen: sidebar, header, notices, the routed content, side panels. */
import type { ReactNode } from 'react'
import type { SubscriptionState } from '../../../core/contracts/api.ts'
import type { Account, Me } from '../../../core/graph/types.ts'
import { useFirstScreenMark } from '../../../shared/ui/first-screen.ts'
import { useSidebarCollapsed } from '../model/sidebar-setting.ts'
import { Header } from './header.tsx'
import { Sidebar } from './sidebar.tsx'

interface AppLayoutProps {
  user?: Me
  /** The pages on the sidebar's rail. */
  accounts: readonly Account[]
  subscription?: SubscriptionState
  hasReferral: boolean
  supportUrl: string
  onLogout: () => void
  onOpenAccount: () => void
  onOpenAddons: () => void
  /** Banners and notices above the content (branded messages, fair use, checkout outcome). */
  notices?: ReactNode
  /** Panels on every screen (the bulk progress cards): under the content on a phone, beside it when wide. */
  aside?: ReactNode
  /** Drawn from the saved session while the sign-in is checked (`data-restoring` on the layout). */
  restoring?: boolean
  /** A page's inbox is the routed screen (`data-inbox-open`: the `compact-inbox` variant, src/app/app.css). */
  inboxOpen?: boolean
  children: ReactNode
}

export function AppLayout(props: AppLayoutProps) {
  const [collapsed, setCollapsed] = useSidebarCollapsed()
  useFirstScreenMark()
  return (
    <div
      className="flex h-dvh overflow-hidden bg-slate-50"
      data-testid="app-layout"
      data-app-layout
      data-restoring={props.restoring ? '' : undefined}
      data-inbox-open={props.inboxOpen ? '' : undefined}
    >
      {collapsed ? null : (
        // On a phone the open sidebar floats over the content; a tap beside it closes it.
        <div
          className="fixed inset-0 z-30 bg-slate-900/30 sm:hidden"
          aria-hidden="true"
          onClick={() => setCollapsed(true)}
        />
      )}
      <Sidebar
        collapsed={collapsed}
        onToggle={() => setCollapsed(!collapsed)}
        accounts={props.accounts}
        user={props.user}
        onLogout={props.onLogout}
        onOpenAccount={props.onOpenAccount}
      />
      {/* The side panels go under the content on a phone and beside it from `lg`, never in its room. */}
      <div className="flex min-w-0 flex-1 flex-col lg:flex-row" data-testid="layout-body">
        <div className="flex min-h-0 min-w-0 flex-1 flex-col lg:min-w-[300px]" data-testid="layout-content">
          <Header
            user={props.user}
            subscription={props.subscription}
            hasReferral={props.hasReferral}
            supportUrl={props.supportUrl}
            onOpenAccount={props.onOpenAccount}
            onOpenAddons={props.onOpenAddons}
          />
          {props.notices}
          <main className="min-h-0 flex-1 overflow-y-auto" id="main">
            {props.children}
          </main>
        </div>
        {props.aside}
      </div>
    </div>
  )
}

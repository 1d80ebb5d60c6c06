/**
 * What a visitor sees, in order (docs/product-rules.md#screens-and-routes): loading dots, the login screen,
 * the terms gate, then the shared layout around the routed screen.
 */
import { Outlet, useRouterState } from '@tanstack/react-router'
import { lazy, Suspense, useEffect } from 'react'
import { LoginScreen } from '../../features/auth/components/login-screen.tsx'
import { AppLayout } from '../../features/layout/components/app-layout.tsx'
import { showsBrandedBanner, showsFairUseNotice } from '../../features/layout/model/subscription-rules.ts'
import { useIdleAfter } from '../../shared/ui/use-idle-after.ts'
import { BrandedBanner } from '../../features/subscription/components/branded-banner.tsx'
import { FairUseNotice } from '../../features/subscription/components/fair-use-notice.tsx'
import { useClientConfig } from '../../shared/config/client-config.ts'
import { storedReferral } from '../../shared/session/referral.ts'
import type { Account } from '../../core/graph/types.ts'
import { drawnConnected, type SessionState, useSession } from '../../shared/session/store.ts'
import { useFirstScreenShown } from '../../shared/ui/first-screen.ts'
import { LoadingDots } from '../../shared/ui/loading-dots.tsx'
import { openModal } from '../../shared/ui/modal-stack.ts'
import { OfflineBanner } from './offline-banner.tsx'
import { requestSignOut } from './sign-out.ts'
import { useAccessRedirects } from './use-access-redirects.ts'
import { useNotificationClicks } from './use-notification-clicks.ts'

// Shown once per user, and it validates the terms answer with the schema library: not on the home path.
const TermsGate = lazy(() =>
  import('../../features/terms/components/terms-gate.tsx').then((m) => ({ default: m.TermsGate })),
)

const BulkProgressPanel = lazy(() =>
  import('../../features/bulk/components/progress-panel.tsx').then((m) => ({ default: m.BulkProgressPanel })),
)

// The live connection (stream, presence) exists only for a signed-in owner: never in the login route's code.
import { inboxMarksRead, LIVE_KEYS } from './live-keys.ts'

const LiveConnection = lazy(() =>
  import('../../features/live/index.ts').then((m) => ({ default: m.LiveConnection })),
)

export function AppShell() {
  const session = useSession()
  if (session.status === 'loading') return <LoadingDots fullScreen />
  if (session.status !== 'logged_in') return <LoginScreen />
  if (session.subscription && !session.subscription.accepted_terms)
    return (
      <Suspense fallback={<LoadingDots fullScreen />}>
        <TermsGate />
      </Suspense>
    )
  return <SignedIn />
}

/**
 * The pages of the sidebar's rail: those with a page token, or, drawn from the saved session without any token,
 * those that were connected when it was saved (their pictures come from the worker's image cache, their
 * conversations from the local database).
 */
function railPages(session: SessionState): Account[] {
  return session.accounts.filter((a) => drawnConnected(session, a))
}

function SignedIn() {
  const session = useSession()
  const config = useClientConfig()
  const subscription = session.subscription
  useAccessRedirects(subscription)
  useNotificationClicks()
  const hasReferral = Boolean(subscription?.referral ?? storedReferral().referral)
  // The progress cards (and the local database they read) follow the first paint of the layout; the live
  // connection and the reply outbox each follow at the browser's next idle moment, so their code and first
  // work run as tasks of their own instead of one long one beside the cards'.
  const firstScreenShown = useFirstScreenShown()
  const liveStarts = useIdleAfter(firstScreenShown)
  const outboxStarts = useIdleAfter(liveStarts)
  useReplyOutbox(outboxStarts)
  // Known from the address, before the inbox's code arrives: the layout is drawn for it from the first frame.
  const inboxOpen = useRouterState({ select: (s) => s.matches.some((m) => m.routeId === '/$pageId') })
  return (
    <AppLayout
      inboxOpen={inboxOpen}
      user={session.fbUser}
      accounts={railPages(session)}
      restoring={session.restoring}
      subscription={subscription}
      hasReferral={hasReferral}
      supportUrl={config.supportUrl}
      onLogout={requestSignOut}
      onOpenAccount={() => openModal('user')}
      onOpenAddons={() => openModal(subscription?.access_type === 'trial' ? 'plans' : 'addons')}
      notices={
        <>
          <OfflineBanner startedOffline={Boolean(session.offline && !session.restoring)} onPage={inboxOpen} />
          {subscription && showsFairUseNotice(subscription) ? <FairUseNotice /> : null}
          {subscription && showsBrandedBanner(subscription) ? <BrandedBanner /> : null}
        </>
      }
      aside={
        firstScreenShown ? (
          <>
            <Suspense fallback={null}>
              <BulkProgressPanel />
            </Suspense>
            {liveStarts ? (
              <Suspense fallback={null}>
                <LiveConnection keys={LIVE_KEYS} inView={inboxMarksRead} />
              </Suspense>
            ) : null}
          </>
        ) : null
      }
    >
      <Suspense fallback={<LoadingDots />}>
        <Outlet />
      </Suspense>
    </AppLayout>
  )
}

/**
 * Replies queued offline are sent from whatever screen is open when the connection (or the page tokens, after
 * an offline start) returns. The flusher and the local database follow the first paint, like the cards.
 */
function useReplyOutbox(start: boolean): void {
  const config = useClientConfig()
  const { graphUrl, graphVersion, messagingPolicy, humanAgentEnabled } = config
  useEffect(() => {
    if (!start) return
    let stop: (() => void) | undefined
    let live = true
    void import('../../features/chat/outbox-flusher.ts')
      .then(({ startReplyOutbox }) => {
        if (!live) return
        stop = startReplyOutbox(
          { baseUrl: graphUrl, version: graphVersion },
          { policy: messagingPolicy, humanAgentEnabled },
        )
      })
      .catch((err: unknown) => console.warn('the reply outbox could not be started', err))
    return () => {
      live = false
      stop?.()
    }
  }, [start, graphUrl, graphVersion, messagingPolicy, humanAgentEnabled])
}

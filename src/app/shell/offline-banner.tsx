/**
 * Says that the app runs without a connection (an offline start from the saved session, or a connection lost
 * on the way). The inbox shows its own, more precise notice, so this one stays off the page routes.
 */
import { Trans } from '@lingui/react/macro'
import { useOnline } from '../../shared/network/use-online.ts'

/** `onPage`: a page's inbox is the routed screen (its own line says it there). */
export function OfflineBanner({ startedOffline, onPage }: { startedOffline: boolean; onPage: boolean }) {
  const online = useOnline()
  if ((online && !startedOffline) || onPage) return null
  return (
    <p
      role="status"
      data-testid="offline-banner"
      className="bg-amber-100 px-3 py-1.5 text-center text-sm text-amber-900"
    >
      <Trans>You are offline. What this device saved is shown; Pagecast reconnects by itself.</Trans>
    </p>
  )
}

import { Trans } from '@lingui/react/macro'

export function OfflineIndicator() {
  return (
    <p
      role="status"
      data-testid="offline-indicator"
      className="bg-amber-100 px-3 py-1.5 text-center text-sm text-amber-900 phone-chat:hidden"
    >
      <Trans>
        You are offline. Saved conversations are shown; replies are sent when the connection returns.
      </Trans>
    </p>
  )
}

import { Trans } from '@lingui/react/macro'

/**
 * Said above the inbox when the network refused to send this page's new messages to Pagecast (its webhook
 * subscription failed when the page was connected): the inbox still works, it only does not update by itself.
 */
export function LiveUpdatesNotice() {
  return (
    <p
      role="status"
      data-testid="live-updates-notice"
      className="bg-sky-50 px-3 py-1.5 text-center text-sm text-sky-900"
    >
      <Trans>Live updates are off for this page: new messages appear when you reload.</Trans>
    </p>
  )
}

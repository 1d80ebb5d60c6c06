/**
 * /account ("My page", with the signed-in devices) and /account/billing (the subscription history):
 * docs/product-rules.md#routes.
 */
import { Trans } from '@lingui/react/macro'
import { NotificationsSection } from './notifications-section.tsx'
import { SessionsSection } from './sessions-section.tsx'
import { SubscriptionHistory } from './subscription-history.tsx'

export function AccountPage({ onSignOutHere }: { onSignOutHere: () => void }) {
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>My page</Trans>
      </h1>
      <NotificationsSection />
      <SessionsSection onSignOutHere={onSignOutHere} />
    </div>
  )
}

export function BillingPage() {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>billing</Trans>
      </h1>
      <SubscriptionHistory />
    </div>
  )
}

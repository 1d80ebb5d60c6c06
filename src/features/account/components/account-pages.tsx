/** /account and /account/billing: placeholders titled as the spec says. */
import { Trans } from '@lingui/react/macro'
import { SubscriptionHistory } from './subscription-history.tsx'

export function AccountPage() {
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>My page</Trans>
      </h1>
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

/** The subscription history on /account/billing: one card per subscription, stacked so it fits a phone. */
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { formatLongDate } from '../../../core/format/dates.ts'
import { formatUsd } from '../../../core/format/numbers.ts'
import { planName } from '../../../shared/ui/plan-name.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { subscriptionHistoryQueryOptions } from '../api/subscription-history.ts'

export function SubscriptionHistory() {
  const { t, i18n } = useLingui()
  const history = useQuery(subscriptionHistoryQueryOptions())
  const date = (iso: string) => (iso ? formatLongDate(iso, i18n.locale) : '—')
  return (
    <section className="mt-6" aria-labelledby="subscription-history-title">
      <h2 id="subscription-history-title" className="text-lg font-semibold text-slate-900">
        <Trans>Subscription history</Trans>
      </h2>
      {history.isLoading ? <LoadingDots /> : null}
      {history.isSuccess && history.data.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          <Trans>You have no subscriptions yet.</Trans>
        </p>
      ) : null}
      {history.data?.length ? (
        <ul data-testid="subscription-history" className="mt-3 space-y-3">
          {history.data.map((sub) => (
            <li
              key={`${sub.created}-${sub.product}`}
              data-testid="subscription-entry"
              className="rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200"
            >
              <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2">
                {(
                  [
                    // The server's name for the trial or plan, said in the owner's language.
                    [t`Product`, planName(sub.product)],
                    [t`Amount`, `${formatUsd(sub.amount, i18n.locale)} USD`],
                    [t`Created`, date(sub.created)],
                    [t`Current period ends`, date(sub.current_period_end)],
                    [t`Cancels at period end`, sub.cancel_at_period_end ? t`Yes` : t`No`],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="flex min-w-0 justify-between gap-3">
                    <dt className="text-slate-500">{label}</dt>
                    <dd className="min-w-0 break-words text-end font-medium text-slate-900">{value}</dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

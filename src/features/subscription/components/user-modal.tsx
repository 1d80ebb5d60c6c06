/**
 * The user/subscription modal (docs/product-rules.md#modals): the current subscription and its cancel button.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { chooseLocale } from '../../../i18n/activate.ts'
import { formatLongDate } from '../../../core/format/dates.ts'
import { formatNumber, formatUsd } from '../../../core/format/numbers.ts'
import { InstallButton } from '../../../shared/install/install-offer.tsx'
import { useSession } from '../../../shared/session/store.ts'
import { planName } from '../../../shared/ui/plan-name.ts'
import { buttonDanger, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { LanguagePicker } from '../../../shared/ui/language-picker.tsx'
import { closeModalsAndOpen, openModal } from '../../../shared/ui/modal-stack.ts'
import { mySubscriptionQueryOptions } from '../api/my-subscription.ts'

export function UserModalBody() {
  const { t, i18n } = useLingui()
  const { fbUser, subscription } = useSession()
  const mine = useQuery(mySubscriptionQueryOptions())
  const sub = mine.data
  // A trial has no price and no period to cancel at: it shows when it ends and what is left of it.
  const trial = subscription?.access_type === 'trial'
  const rows: [string, string][] = !sub
    ? []
    : trial
      ? [
          [t`Product`, planName(sub.product)],
          [t`Started`, formatLongDate(sub.created, i18n.locale)],
          [t`Trial ends`, formatLongDate(sub.current_period_end, i18n.locale)],
          [t`Messages left`, formatNumber(subscription.available_messages, i18n.locale)],
        ]
      : [
          [t`Product`, planName(sub.product)],
          [t`Amount`, `${formatUsd(sub.amount, i18n.locale)} USD`],
          [t`Created`, formatLongDate(sub.created, i18n.locale)],
          [t`Current period ends`, formatLongDate(sub.current_period_end, i18n.locale)],
          [t`Cancels at period end`, sub.cancel_at_period_end ? t`Yes` : t`No`],
        ]
  return (
    <div className="space-y-4 text-sm">
      <div>
        <p dir="auto" className="font-semibold text-slate-900">
          {fbUser?.name}
        </p>
        <p className="text-slate-500">
          <Trans>ID: {fbUser?.id}</Trans>
        </p>
      </div>
      {/* One tap each: the account page, and the interface language. */}
      <div className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" data-testid="account-menu">
        {/* The account page takes the modal's place: Back from it leaves it. */}
        <a
          href="/account"
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
            e.preventDefault()
            closeModalsAndOpen('/account')
          }}
          data-testid="account-menu-account"
          className="flex min-h-11 items-center justify-between gap-3 px-3 py-2 hover:bg-slate-50"
        >
          <span className="min-w-0">
            <span className="block font-medium text-slate-900">
              <Trans>Account</Trans>
            </span>
            <span className="block text-xs text-slate-500">
              <Trans>Notifications, signed-in devices, install the app</Trans>
            </span>
          </span>
          <span aria-hidden="true" className="inline-block shrink-0 text-slate-400 rtl:-scale-x-100">
            ›
          </span>
        </a>
        <div className="flex min-h-11 items-center justify-between gap-3 px-3 py-1">
          <span className="font-medium text-slate-900" aria-hidden="true">
            <Trans>Language</Trans>
          </span>
          <LanguagePicker onChoose={chooseLocale} />
        </div>
      </div>
      {subscription && !trial && !(subscription.is_unlimited && !subscription.unlimited_blocked) ? (
        <p className="rounded-lg bg-slate-50 p-3">
          <Trans>Available messages: {formatNumber(subscription.available_messages, i18n.locale)}</Trans>
        </p>
      ) : null}
      {mine.isLoading ? <LoadingDots /> : null}
      {sub ? (
        <dl
          className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200"
          data-testid="my-subscription"
        >
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4 px-3 py-2">
              <dt className="text-slate-500">{label}</dt>
              <dd className="text-end font-medium text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      ) : mine.isSuccess ? (
        <p className="text-slate-600">
          <Trans>You have no paid subscription yet.</Trans>
        </p>
      ) : null}
      {sub?.cancel_at_period_end ? (
        <p
          role="status"
          className="rounded-lg border-s-4 border-orange-500 bg-orange-50 p-3 text-orange-900"
          data-testid="cancel-notice"
        >
          <Trans>Your subscription will be automatically cancelled at the end of the current period.</Trans>
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2 pt-2">
        <button type="button" className={buttonSecondary} onClick={() => openModal('plans')}>
          <Trans>Plans</Trans>
        </button>
        {/* Add-on packs need a paid subscription (docs/product-rules.md#plans-and-add-ons). */}
        {trial ? null : (
          <button type="button" className={buttonSecondary} onClick={() => openModal('addons')}>
            <Trans>Buy more messages</Trans>
          </button>
        )}
        <InstallButton />
        {sub && subscription?.access_type === 'paid' && !sub.cancel_at_period_end ? (
          <button
            type="button"
            className={`${buttonDanger} ms-auto`}
            onClick={() => openModal('cancel-subscription')}
          >
            <Trans>Cancel subscription</Trans>
          </button>
        ) : null}
      </div>
    </div>
  )
}

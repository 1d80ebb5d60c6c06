import { Plural, useLingui } from '@lingui/react/macro'
import { REFERRAL_DISCOUNT_MONTHS, REFERRAL_DISCOUNT_PERCENT } from '../../../core/constants/limits.ts'
import { formatNumber } from '../../../core/format/numbers.ts'

/** Shown when a referral coupon exists (docs/product-rules.md#plans-page). */
export function ReferralDiscount() {
  const { i18n } = useLingui()
  const percent = formatNumber(REFERRAL_DISCOUNT_PERCENT, i18n.locale)
  const months = REFERRAL_DISCOUNT_MONTHS
  return (
    <p
      className="mt-4 rounded-xl bg-emerald-50 p-4 text-sm font-medium text-emerald-900 ring-1 ring-emerald-200"
      data-testid="referral-discount"
    >
      <Plural
        value={months}
        one={`You were referred by a friend: ${percent}% off your first month is applied at checkout.`}
        other={`You were referred by a friend: ${percent}% off your first # months is applied at checkout.`}
      />
    </p>
  )
}

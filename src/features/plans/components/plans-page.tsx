/**
 * /plans: the carousel, the user's name and id, the referral discount banner
 * (docs/product-rules.md#plans-page). Lazy chunk.
 */
import { Trans } from '@lingui/react/macro'
import { storedReferral } from '../../../shared/session/referral.ts'
import { useSession } from '../../../shared/session/store.ts'
import { PlanCarousel } from './plan-carousel.tsx'
import { ReferralDiscount } from './referral-discount.tsx'

export default function PlansPage() {
  const { fbUser, subscription } = useSession()
  const codes = storedReferral()
  const referral = subscription?.referral ?? codes.referral
  const coupon = subscription?.coupon ?? codes.coupon
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6">
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Choose your plan</Trans>
      </h1>
      <p className="mt-1 text-sm text-slate-600" data-testid="plans-user">
        <Trans>
          {fbUser?.name} · ID {fbUser?.id}
        </Trans>
      </p>
      {coupon || referral ? <ReferralDiscount /> : null}
      <div className="mt-6">
        <PlanCarousel referral={referral} />
      </div>
    </div>
  )
}

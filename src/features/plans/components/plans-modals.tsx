/** Bodies of the plans and add-ons modals; the app shell frames them. Lazy chunk with the plans page. */
import { Trans } from '@lingui/react/macro'
import { useSession } from '../../../shared/session/store.ts'
import { buttonPrimary } from '../../../shared/ui/button-styles.ts'
import { openModal } from '../../../shared/ui/modal-stack.ts'
import { storedReferral } from '../../../shared/session/referral.ts'
import { AddonsList } from './addons-list.tsx'
import { PlanCarousel } from './plan-carousel.tsx'
import { ReferralDiscount } from './referral-discount.tsx'

export function PlansModalBody() {
  const { subscription } = useSession()
  const codes = storedReferral()
  const referral = subscription?.referral ?? codes.referral
  return (
    <>
      {referral || subscription?.coupon || codes.coupon ? <ReferralDiscount /> : null}
      <div className="mt-4">
        <PlanCarousel referral={referral} />
      </div>
    </>
  )
}

/**
 * Add-on packs need an active paid subscription (docs/product-rules.md#plans-and-add-ons): without one the
 * modal says so and offers the plans, before any checkout tab opens.
 */
export function AddonsModalBody() {
  const { subscription } = useSession()
  if (subscription && !(subscription.access_type === 'paid' && subscription.access))
    return (
      <div className="space-y-3 text-sm" data-testid="addons-need-plan">
        <p className="text-slate-700">
          <Trans>
            Message packs are added to a paid subscription. Choose a plan first: its messages come with it.
          </Trans>
        </p>
        <button type="button" className={buttonPrimary} onClick={() => openModal('plans')}>
          <Trans>See the plans</Trans>
        </button>
      </div>
    )
  return <AddonsList referral={subscription?.referral ?? storedReferral().referral} />
}

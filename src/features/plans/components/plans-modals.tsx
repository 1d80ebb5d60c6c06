/** Bodies of the plans and add-ons modals; the app shell frames them. Lazy chunk with the plans page. */
import { useSession } from '../../../shared/session/store.ts'
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

export function AddonsModalBody() {
  const { subscription } = useSession()
  return <AddonsList referral={subscription?.referral ?? storedReferral().referral} />
}

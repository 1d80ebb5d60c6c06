/** Bodies of the plans and add-ons modals; the app shell frames them. Lazy chunk with the plans page. */
import { useSession } from '../../../shared/session/store.ts'
import { storedReferral } from '../../../shared/session/referral.ts'
import { AddonsList } from './addons-list.tsx'
import { PlanCarousel } from './plan-carousel.tsx'

export function PlansModalBody() {
  const { subscription } = useSession()
  return <PlanCarousel referral={subscription?.referral ?? storedReferral().referral} />
}

export function AddonsModalBody() {
  const { subscription } = useSession()
  return <AddonsList referral={subscription?.referral ?? storedReferral().referral} />
}

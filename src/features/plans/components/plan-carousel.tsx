/**
 * The eight plans as a scroll-snap carousel with monthly/annual prices
 * (docs/product-rules.md#plans-and-add-ons).
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useRef, useState } from 'react'
import { plans } from '../../../core/constants/plans.ts'
import { formatUsd } from '../../../core/format/numbers.ts'
import { planName } from '../../../shared/ui/plan-name.ts'
import { buttonPrimary } from '../../../shared/ui/button-styles.ts'
import { openCheckout } from '../api/checkout.ts'

export function PlanCarousel({ referral }: { referral?: string | null }) {
  const { t, i18n } = useLingui()
  const [annual, setAnnual] = useState(false)
  const [busy, setBusy] = useState<string>()
  const track = useRef<HTMLUListElement>(null)

  function scroll(direction: 1 | -1) {
    const el = track.current
    if (!el) return
    const rtl = getComputedStyle(el).direction === 'rtl' ? -1 : 1
    el.scrollBy({ left: direction * rtl * el.clientWidth * 0.8, behavior: 'smooth' })
  }

  async function buy(priceId: string) {
    setBusy(priceId)
    await openCheckout(priceId, false, referral).catch(() => undefined)
    setBusy(undefined)
  }

  return (
    <section aria-label={t`Plans`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          role="radiogroup"
          aria-label={t`Billing period`}
          className="inline-flex rounded-lg bg-slate-100 p-1 text-sm"
        >
          {[false, true].map((isAnnual) => (
            <button
              key={String(isAnnual)}
              type="button"
              role="radio"
              aria-checked={annual === isAnnual}
              onClick={() => setAnnual(isAnnual)}
              className={`min-h-11 rounded-md px-3 py-1.5 font-medium ${annual === isAnnual ? 'bg-white text-slate-900 shadow' : 'text-slate-600'}`}
            >
              {isAnnual ? t`Annual` : t`Monthly`}
            </button>
          ))}
        </div>
        <div className="flex gap-2">
          <ScrollButton direction={-1} label={t`Previous plans`} onClick={scroll} />
          <ScrollButton direction={1} label={t`Next plans`} onClick={scroll} />
        </div>
      </div>
      <ul
        ref={track}
        className="mt-4 flex snap-x snap-mandatory gap-4 overflow-x-auto pb-3"
        data-testid="plan-carousel"
      >
        {plans.map((plan) => {
          const price = formatUsd(annual ? plan.priceAnnually : plan.price, i18n.locale)
          const priceId = annual ? plan.annual_price_id : plan.price_id
          const { messages } = plan
          return (
            <li
              key={plan.price_id}
              data-testid="plan-card"
              className="flex w-64 shrink-0 snap-start flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
            >
              <h3 className="text-lg font-bold text-slate-900">{planName(plan.title)}</h3>
              <p className="mt-2 text-3xl font-bold text-slate-900 tabular-nums">
                {price}
                <span className="ms-1 text-sm font-medium text-slate-500">
                  {annual ? t`/ year` : t`/ month`}
                </span>
              </p>
              <ul className="mt-4 flex-1 space-y-1.5 text-sm text-slate-700">
                <li>
                  <Plural value={messages} one="# message per month" other="# messages per month" />
                </li>
                <li>
                  <Trans>Unlimited pages</Trans>
                </li>
              </ul>
              <button
                type="button"
                className={`${buttonPrimary} mt-5`}
                disabled={busy === priceId}
                onClick={() => buy(priceId)}
              >
                {busy === priceId ? <Trans>Loading...</Trans> : <Trans>Subscribe</Trans>}
              </button>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

const ARROW_PATHS = {
  [-1]: 'M12.7 4.3a1 1 0 0 1 0 1.4L8.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4l-5-5a1 1 0 0 1 0-1.4l5-5a1 1 0 0 1 1.4 0Z',
  [1]: 'M7.3 4.3a1 1 0 0 1 1.4 0l5 5a1 1 0 0 1 0 1.4l-5 5a1 1 0 0 1-1.4-1.4L11.6 10 7.3 5.7a1 1 0 0 1 0-1.4Z',
} as const

/** A carousel arrow; the icon mirrors in right-to-left layouts, as the scroll direction does. */
function ScrollButton({
  direction,
  label,
  onClick,
}: {
  direction: 1 | -1
  label: string
  onClick: (direction: 1 | -1) => void
}) {
  return (
    <button
      type="button"
      onClick={() => onClick(direction)}
      aria-label={label}
      className="grid size-11 place-items-center rounded-full border border-slate-300 bg-white hover:bg-slate-50"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 rtl:-scale-x-100" fill="currentColor">
        <path d={ARROW_PATHS[direction]} />
      </svg>
    </button>
  )
}

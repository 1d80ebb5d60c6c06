/** /affiliates: the affiliate programme (docs/product-rules.md#affiliates-page). Lazy chunk. */
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import {
  AFFILIATE_COMMISSION_DAYS,
  AFFILIATE_COMMISSION_PERCENT,
  AFFILIATE_MIN_PAYOUT_USD,
  REFERRAL_DISCOUNT_MONTHS,
  REFERRAL_DISCOUNT_PERCENT,
} from '../../../core/constants/limits.ts'
import { useClientConfig } from '../../../shared/config/client-config.ts'
import { formatNumber } from '../../../core/format/numbers.ts'

export default function AffiliatesPage() {
  const config = useClientConfig()
  const { i18n } = useLingui()
  const [commission, discount, payout] = [
    AFFILIATE_COMMISSION_PERCENT,
    REFERRAL_DISCOUNT_PERCENT,
    AFFILIATE_MIN_PAYOUT_USD,
  ].map((n) => formatNumber(n, i18n.locale))
  const [days, months] = [AFFILIATE_COMMISSION_DAYS, REFERRAL_DISCOUNT_MONTHS]
  const steps = [
    { title: <Trans>Sign up</Trans>, text: <Trans>Create your free affiliate account in a minute.</Trans> },
    {
      title: <Trans>Invite</Trans>,
      text: <Trans>Share your link with page owners who need to reach their customers.</Trans>,
    },
    {
      title: <Trans>Earn money</Trans>,
      text: <Trans>Get {commission}% of every purchase your referrals make.</Trans>,
    },
  ]
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6">
      <div className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-500 p-6 text-white sm:p-10 rtl:bg-gradient-to-bl">
        <h1 className="text-3xl font-bold">
          <Trans>Earn money with Pagecast</Trans>
        </h1>
        <p className="mt-2 max-w-xl text-brand-50">
          <Trans>Recommend Pagecast to other page owners and earn a share of what they buy.</Trans>
        </p>
        <a
          href={config.affiliateSignupUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-6 inline-flex rounded-lg bg-white px-5 py-2.5 font-semibold text-brand-700 shadow hover:bg-brand-50"
        >
          <Trans>Start Earning Money Now</Trans>
        </a>
      </div>
      <ol className="mt-8 grid gap-4 sm:grid-cols-3">
        {steps.map((s, i) => (
          <li key={i} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <span className="grid size-8 place-items-center rounded-full bg-brand-100 font-bold text-brand-700">
              {i + 1}
            </span>
            <h2 className="mt-3 font-semibold text-slate-900">{s.title}</h2>
            <p className="mt-1 text-sm text-slate-600">{s.text}</p>
          </li>
        ))}
      </ol>
      <section className="mt-8 rounded-xl bg-white p-5 text-sm text-slate-700 shadow-sm ring-1 ring-slate-200">
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Terms</Trans>
        </h2>
        <ul className="mt-3 list-disc space-y-1.5 ps-5">
          <li>
            <Plural
              value={days}
              one={`You earn ${commission}% of referred purchases for # day.`}
              other={`You earn ${commission}% of referred purchases for # days.`}
            />
          </li>
          <li>
            <Plural
              value={months}
              one={`Your referrals get ${discount}% off for # month.`}
              other={`Your referrals get ${discount}% off for # months.`}
            />
          </li>
          <li>
            <Trans>The minimum payout is ${payout}, paid through a payment service.</Trans>
          </li>
        </ul>
        <p className="mt-4">
          <Trans>Already an affiliate?</Trans>{' '}
          <a
            href={config.affiliateLoginUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="font-semibold text-brand-700 underline"
          >
            <Trans>Log in to your affiliate account</Trans>
          </a>
        </p>
      </section>
    </div>
  )
}

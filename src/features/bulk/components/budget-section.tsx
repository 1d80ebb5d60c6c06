/**
 * The campaign budget of a send that reaches subscribers (daily or total, typed in major units of the ad
 * account's currency), the cost estimate, and the send's summary: free standard messages, paid marketing
 * messages with their estimate, and the Pagecast messages the send spends (each delivered message spends one).
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { BudgetKind, MarketingEstimate } from '../../../core/contracts/marketing.ts'
import { formatNumber } from '../../../core/format/numbers.ts'
import { formatMoney, type BudgetVerdict, type SendSummary } from '../model/marketing.ts'

export function BudgetSection(props: {
  currency: string
  kind: BudgetKind
  amount: string
  onKind(kind: BudgetKind): void
  onAmount(amount: string): void
  /** How many subscribers the send reaches by marketing message. */
  count: number
  /** The estimate for the marketing recipients; undefined while it loads. */
  estimate: MarketingEstimate | undefined
  estimateFailed: boolean
  verdict: BudgetVerdict
  /** Whether the owner already tried to send (the refusal is shown only then, or once something was typed). */
  tried: boolean
}) {
  const { i18n } = useLingui()
  const { verdict } = props
  const showRefusal = !verdict.ok && (props.tried || props.amount.trim() !== '')
  return (
    <fieldset
      className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3 text-sm leading-[normal]"
      data-testid="bulk-budget"
    >
      <legend className="px-1 font-medium text-slate-700">
        <Trans>Marketing budget</Trans>
      </legend>
      <div className="flex flex-wrap gap-4" role="radiogroup">
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="bulk-budget-kind"
            checked={props.kind === 'total'}
            onChange={() => props.onKind('total')}
          />
          <Trans>Total budget</Trans>
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="bulk-budget-kind"
            checked={props.kind === 'daily'}
            onChange={() => props.onKind('daily')}
          />
          <Trans>Daily budget</Trans>
        </label>
      </div>
      <label className="flex flex-col gap-1">
        <span className="text-slate-700">
          <AmountLabel currency={props.currency} />
        </span>
        <input
          type="text"
          inputMode="decimal"
          dir="ltr"
          className="w-40 rounded-lg border border-slate-300 p-2 text-start"
          value={props.amount}
          onChange={(e) => props.onAmount(e.target.value)}
          aria-invalid={showRefusal}
          data-testid="bulk-budget-amount"
        />
      </label>
      <p className="text-slate-600" data-testid="bulk-estimate">
        {props.estimateFailed ? (
          <Trans>The cost estimate is not available right now.</Trans>
        ) : props.estimate ? (
          <EstimateText
            amount={formatMoney(props.estimate.estimate_minor, props.estimate.currency, i18n.locale)}
            count={props.count}
          />
        ) : (
          <Trans>Estimating the cost…</Trans>
        )}
      </p>
      {showRefusal && !verdict.ok ? (
        <p className="text-red-700" role="alert" data-testid="bulk-budget-error">
          {verdict.why === 'zero' ? (
            <Trans>The budget must be more than zero.</Trans>
          ) : verdict.why === 'empty' ? (
            <Trans>Enter a budget for the marketing messages.</Trans>
          ) : (
            <Trans>Enter the amount as a number, such as 50 or 50.00.</Trans>
          )}
        </p>
      ) : null}
      {verdict.ok && verdict.belowEstimate ? (
        <p className="rounded bg-amber-50 p-2 text-amber-800" data-testid="bulk-budget-warning">
          <Trans>
            The budget is below the estimate: sending stops when it is spent, and some subscribers will not
            get the message.
          </Trans>
        </p>
      ) : null}
      <p className="text-xs text-slate-500">
        <Trans>Facebook bills the page's ad account for each delivered marketing message.</Trans>
      </p>
    </fieldset>
  )
}

function AmountLabel({ currency }: { currency: string }) {
  return <Trans>Amount ({currency})</Trans>
}

function EstimateText({ amount, count }: { amount: string; count: number }) {
  return (
    <Plural value={count} one={`About ${amount} for # message`} other={`About ${amount} for # messages`} />
  )
}

/** What the send is made of, before it starts. */
export function SendSummaryList(props: {
  summary: SendSummary
  currency: string | undefined
  estimateMinor: number | undefined
}) {
  const { i18n } = useLingui()
  const n = (v: number) => formatNumber(v, i18n.locale)
  const [standard, marketing, spent] = [
    props.summary.standard,
    props.summary.marketing,
    props.summary.spent,
  ].map(n)
  const estimate =
    props.currency && props.estimateMinor !== undefined
      ? formatMoney(props.estimateMinor, props.currency, i18n.locale)
      : undefined
  return (
    <ul
      className="flex flex-col gap-1 rounded-lg bg-slate-100 p-3 text-sm leading-[normal] text-slate-700"
      data-testid="bulk-summary"
    >
      <li data-testid="bulk-summary-standard">
        <Trans>Free standard messages: {standard}</Trans>
      </li>
      <li data-testid="bulk-summary-marketing">
        {estimate ? (
          <Trans>
            Paid marketing messages: {marketing} (about {estimate})
          </Trans>
        ) : (
          <Trans>Paid marketing messages: {marketing}</Trans>
        )}
      </li>
      <li data-testid="bulk-summary-spent">
        <Trans>Pagecast messages spent: {spent}</Trans>
      </li>
    </ul>
  )
}

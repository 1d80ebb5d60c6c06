/**
 * Step 1: the labels, the loaded count, and (current policy) the three groups of the audience: inside the
 * 24-hour window (free), subscribers outside it (paid marketing message), and the rest, with why they are out
 * of reach. The two reachable groups can each be left out.
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { AUDIENCE_LABELS, type AudienceLabel } from '../../../core/constants/limits.ts'
import { formatNumber } from '../../../core/format/numbers.ts'
import type { UnreachableWhy } from '../../../core/policy/reach.ts'
import { openModal } from '../../../shared/ui'
import type { LabelMatch } from '../../../shared/labels/audience.ts'

export interface AudienceGroups {
  standard: number
  marketing: number
  none: Record<UnreachableWhy, number>
  /** Marketing messages are on for the page; undefined while unknown. */
  marketingOn: boolean | undefined
  /** The subscribers' group is reduced to the window's (an opt-in request goes only inside it). */
  optin: boolean
  /** An update from a template goes to every chosen customer, whichever group: the groups are not chosen. */
  utility?: boolean
  chosen: { standard: boolean; marketing: boolean }
  onChoose(group: 'standard' | 'marketing', on: boolean): void
}

/** The page's custom labels as step 1 offers them: each with how many loaded customers carry it. */
export interface PageLabelChoice {
  labels: readonly { id: string; name: string; count: number }[]
  chosen: readonly string[]
  onToggle(id: string): void
  match: LabelMatch
  onMatch(match: LabelMatch): void
  /** Customers whose labels are still being read from the network. */
  reading?: { done: number; total: number }
}

export function AudienceStep(props: {
  labels: AudienceLabel[]
  onToggle(label: AudienceLabel): void
  pageLabels?: PageLabelChoice
  loaded: number
  loading: boolean
  onCancel(): void
  /** A failure stopped the loading before the end of the list; `onResume` goes on from there. */
  failed?: boolean
  onResume?(): void
  windowed: boolean
  /** Customers waiting for an answer among those chosen: left out unless included. */
  waiting: { count: number; included: boolean; onInclude(on: boolean): void }
  groups: AudienceGroups
}) {
  const { i18n } = useLingui()
  const loadedCount = props.loaded
  const loaded = formatNumber(loadedCount, i18n.locale)
  const reading = props.pageLabels?.reading
  const readDone = formatNumber(reading?.done ?? 0, i18n.locale)
  const readTotal = formatNumber(reading?.total ?? 0, i18n.locale)
  return (
    <div className="flex flex-col gap-3 text-sm">
      <div className="flex flex-wrap gap-2" role="group">
        {AUDIENCE_LABELS.map((label) => (
          <button
            key={label}
            type="button"
            aria-pressed={props.labels.includes(label)}
            className="min-h-11 rounded-full border border-slate-300 px-3 py-1 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-700"
            onClick={() => props.onToggle(label)}
          >
            {label === 'all_labels' ? <Trans>All labels</Trans> : <Trans>No labels</Trans>}
          </button>
        ))}
        {props.pageLabels?.labels.map((label) => (
          <button
            key={label.id}
            type="button"
            data-testid="bulk-page-label"
            data-label-id={label.id}
            aria-pressed={props.pageLabels!.chosen.includes(label.id)}
            className="flex min-h-11 items-center gap-1 rounded-full border border-slate-300 px-3 py-1 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-700"
            onClick={() => props.pageLabels!.onToggle(label.id)}
          >
            <span dir="auto" className="leading-[normal]">
              {label.name}
            </span>
            <span className="text-slate-600 tabular-nums" data-testid="bulk-page-label-count">
              {formatNumber(label.count, i18n.locale)}
            </span>
          </button>
        ))}
      </div>
      {props.pageLabels && props.pageLabels.chosen.length > 1 ? (
        <fieldset className="flex flex-col" data-testid="bulk-label-match">
          <legend className="sr-only">
            <Trans>Customers with</Trans>
          </legend>
          {(['any', 'all'] as const).map((match) => (
            <label key={match} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name="label-match"
                checked={props.pageLabels!.match === match}
                onChange={() => props.pageLabels!.onMatch(match)}
              />
              {match === 'any' ? (
                <Trans>Customers with any of these labels</Trans>
              ) : (
                <Trans>Customers with all of these labels</Trans>
              )}
            </label>
          ))}
        </fieldset>
      ) : null}
      {reading && reading.done < reading.total ? (
        <p className="text-slate-600" data-testid="bulk-labels-reading" aria-live="polite">
          <Trans>
            Reading customers' labels… {readDone} of {readTotal}
          </Trans>
        </p>
      ) : null}
      <p className="text-slate-700" data-testid="bulk-loaded">
        {props.loading ? (
          <Trans>Loading recipients… {loaded} so far</Trans>
        ) : (
          <Plural value={loadedCount} one="# recipient loaded" other="# recipients loaded" />
        )}
        {props.loading ? (
          <button
            type="button"
            className="ms-1 min-h-11 px-1 text-brand-700 underline"
            onClick={props.onCancel}
          >
            <Trans>Stop loading</Trans>
          </button>
        ) : null}
      </p>
      {props.failed ? (
        <div
          role="alert"
          className="flex flex-col items-start gap-2 rounded border border-amber-300 bg-amber-50 p-2 text-amber-900"
          data-testid="bulk-loading-failed"
        >
          <p>
            <Trans>
              The connection failed and loading stopped before the last conversation. Recipients loaded so
              far: {loaded}.
            </Trans>
          </p>
          <button
            type="button"
            className="min-h-11 rounded border border-amber-400 bg-white px-3 font-medium text-amber-900"
            onClick={props.onResume}
          >
            <Trans>Go on loading</Trans>
          </button>
        </div>
      ) : null}
      {props.waiting.count > 0 ? <Waiting {...props.waiting} /> : null}
      {props.windowed ? <Groups groups={props.groups} /> : null}
    </div>
  )
}

/** "12 customers are waiting for an answer": left out of the send by default, or included. */
function Waiting({ count, included, onInclude }: AudienceStepWaiting) {
  return (
    <div
      data-testid="bulk-waiting"
      data-included={included ? 'true' : 'false'}
      className="flex flex-col gap-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950"
    >
      <p>
        <Plural
          value={count}
          one="# customer is waiting for an answer: answer them first, or include them."
          other="# customers are waiting for an answer: answer them first, or include them."
        />
      </p>
      <label className="flex min-h-11 items-center gap-2">
        <input
          type="checkbox"
          data-testid="bulk-include-waiting"
          checked={included}
          onChange={(e) => onInclude(e.target.checked)}
          className="size-5"
        />
        <span>
          {included ? (
            <Trans>They are included in this send</Trans>
          ) : (
            <Plural value={count} one="Include them (# left out now)" other="Include them (# left out now)" />
          )}
        </span>
      </label>
    </div>
  )
}

type AudienceStepWaiting = Parameters<typeof AudienceStep>[0]['waiting']

function Groups({ groups }: { groups: AudienceGroups }) {
  const { t, i18n } = useLingui()
  const n = (v: number) => formatNumber(v, i18n.locale)
  const rest = Object.values(groups.none).reduce((a, b) => a + b, 0)
  const everyone = groups.standard + groups.marketing + rest
  const reasons = (Object.keys(groups.none) as UnreachableWhy[]).filter((why) => groups.none[why] > 0)
  if (groups.utility)
    return (
      <p className="text-slate-700" data-testid="bulk-groups-utility">
        <Plural
          value={everyone}
          one="An update from a template goes to the # chosen customer, inside the 24-hour window or not."
          other="An update from a template goes to all # chosen customers, inside the 24-hour window or not."
        />
      </p>
    )
  return (
    <ul className="flex flex-col gap-2" aria-label={t`Audience groups`}>
      <Group
        testId="bulk-group-standard"
        count={<span data-testid="bulk-window">{n(groups.standard)}</span>}
        checked={groups.chosen.standard}
        onCheck={(on) => groups.onChoose('standard', on)}
        title={<Trans>Wrote to the page in the last 23 hours (free)</Trans>}
      />
      <Group
        testId="bulk-group-marketing"
        count={n(groups.marketing)}
        checked={groups.chosen.marketing && groups.marketingOn === true && !groups.optin}
        disabled={groups.marketingOn !== true || groups.optin}
        onCheck={(on) => groups.onChoose('marketing', on)}
        title={<Trans>Subscribers who have not written in 23 hours (paid marketing message)</Trans>}
      >
        {groups.marketingOn === false ? (
          <span className="flex flex-col items-start gap-1">
            <span>
              <Trans>
                Marketing messages are off for this page. Turn them on to reach customers who subscribed.
              </Trans>
            </span>
            <button
              type="button"
              className="-ms-1 min-h-11 px-1 text-start text-brand-700 underline"
              onClick={() => openModal('marketing')}
              data-testid="bulk-marketing-turn-on"
            >
              <Trans>Turn on marketing messages</Trans>
            </button>
          </span>
        ) : groups.marketingOn === undefined ? (
          <Trans>Checking the page's marketing messages…</Trans>
        ) : groups.optin ? (
          <Trans>Opt-in requests go only inside the window.</Trans>
        ) : null}
      </Group>
      <Group testId="bulk-group-none" count={n(rest)} title={<Trans>The rest (unreachable)</Trans>}>
        {reasons.length > 0 ? (
          <ul className="list-disc ps-5">
            {reasons.map((why) => (
              <li key={why} data-testid={`bulk-why-${why}`}>
                <WhyText why={why} count={n(groups.none[why])} />
              </li>
            ))}
          </ul>
        ) : null}
      </Group>
    </ul>
  )
}

function Group(props: {
  testId: string
  title: ReactNode
  count: ReactNode
  checked?: boolean
  disabled?: boolean
  onCheck?(on: boolean): void
  children?: ReactNode
}) {
  const head = (
    <span className="flex flex-1 items-baseline justify-between gap-2">
      <span className="font-medium text-slate-700">{props.title}</span>
      <span className="font-semibold text-slate-800 tabular-nums">{props.count}</span>
    </span>
  )
  return (
    // Line height `normal` is each script's own: Nastaliq (Urdu) needs far more than Latin.
    <li className="rounded-lg border border-slate-200 p-2 leading-[normal]" data-testid={props.testId}>
      {props.onCheck ? (
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            className="mt-1"
            checked={!!props.checked}
            disabled={props.disabled}
            onChange={(e) => props.onCheck?.(e.target.checked)}
          />
          {head}
        </label>
      ) : (
        <div className="flex">{head}</div>
      )}
      {props.children ? (
        <div className={`mt-1 text-slate-600 ${props.onCheck ? 'ps-6' : ''}`}>{props.children}</div>
      ) : null}
    </li>
  )
}

function WhyText({ why, count }: { why: UnreachableWhy; count: string }) {
  switch (why) {
    case 'not_subscribed':
      return <Trans>{count}: no recent message and not subscribed</Trans>
    case 'outside_window':
      return <Trans>{count}: last wrote more than 23 hours ago</Trans>
    case 'no_customer_message':
      return <Trans>{count}: no message from them yet</Trans>
    case 'marketing_off':
      return <Trans>{count}: subscribed, but marketing messages are off for this page</Trans>
  }
}

/** Step 1: the labels, the loaded count, and (current policy) who is inside or outside the window. */
import { Trans, useLingui } from '@lingui/react/macro'
import { AUDIENCE_LABELS, type AudienceLabel } from '../../../shared/constants/limits.ts'
import { formatNumber } from '../../../shared/format/numbers.ts'

export function AudienceStep(props: {
  labels: AudienceLabel[]
  onToggle(label: AudienceLabel): void
  loaded: number
  loading: boolean
  onCancel(): void
  inside: number
  outside: number
  windowed: boolean
}) {
  const { i18n } = useLingui()
  const [loaded, inside, outside] = [props.loaded, props.inside, props.outside].map((n) =>
    formatNumber(n, i18n.locale),
  )
  return (
    <div className="flex flex-col gap-3 text-sm">
      <div className="flex flex-wrap gap-2" role="group">
        {AUDIENCE_LABELS.map((label) => (
          <button
            key={label}
            type="button"
            aria-pressed={props.labels.includes(label)}
            className="rounded-full border border-slate-300 px-3 py-1 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-700"
            onClick={() => props.onToggle(label)}
          >
            {label === 'all_labels' ? <Trans>All labels</Trans> : <Trans>No labels</Trans>}
          </button>
        ))}
      </div>
      <p className="text-slate-700" data-testid="bulk-loaded">
        {props.loading ? (
          <Trans>Loading recipients… {loaded} so far</Trans>
        ) : (
          <Trans>{loaded} recipients loaded</Trans>
        )}
        {props.loading ? (
          <button type="button" className="ms-2 text-brand-700 underline" onClick={props.onCancel}>
            <Trans>Stop loading</Trans>
          </button>
        ) : null}
      </p>
      {props.windowed ? (
        <p className="text-slate-600" data-testid="bulk-window">
          <Trans>
            {inside} inside the 24-hour messaging window will receive it; {outside} outside the window are
            left out.
          </Trans>
        </p>
      ) : null}
    </div>
  )
}

/** One bulk job's card: counts, bar, state, controls and the close (x). */
import { plural } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { pauseJob, pauseServerJob, resumeJob } from '../api/job-controls.ts'
import { useCloseJob } from '../api/use-close-job.ts'
import { confirmCancelSend } from './cancel-confirm.tsx'
import { cardView, wayCounts, type CardJob } from '../model/card.ts'
import { formatMoney } from '../model/marketing.ts'
import { MarketingLine, MarketingResume } from './progress-card-marketing.tsx'
import { StateLabel } from './state-label.tsx'
import { formatNumber } from '../../../core/format/numbers.ts'

/** The card's controls: small words, a thumb's target (44 px) each. */
const small =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50'

export function ProgressCard({
  job,
  onServerChange,
}: {
  job: CardJob
  /** The server's record of a job changed from this card (the list of the server's jobs is read again). */
  onServerChange?: () => void
}) {
  const { t, i18n } = useLingui()
  const view = cardView(job)
  const [busy, setBusy] = useState(false)
  const closeJob = useCloseJob()
  const act = (fn: (id: string) => Promise<void>) => async () => {
    setBusy(true)
    try {
      await fn(job.id)
    } catch {
      // The API client has already told the user.
    } finally {
      setBusy(false)
      onServerChange?.()
    }
  }
  const { sent, total, rejected, skipped, delivered, read } = job
  const sentText = formatNumber(sent, i18n.locale)
  const ways = wayCounts(job)
  return (
    <li
      className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
      data-testid="bulk-card"
      data-job-id={job.id}
      data-state={job.state}
      data-remote={job.remote}
    >
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <p dir="auto" className="truncate text-xs text-slate-500">
            {job.pageName}
          </p>
          <p className="text-sm font-medium text-slate-800" data-testid="bulk-card-summary">
            {view.headline === 'sending'
              ? t`Sending ${sentText}/${plural(total, { one: '# message', other: '# messages' })}`
              : view.headline === 'paused'
                ? t`Paused: ${sentText} of ${plural(total, { one: '# message', other: '# messages' })} sent, ${plural(rejected, { one: '# rejected', other: '# rejected' })}`
                : view.headline === 'finished'
                  ? t`${plural(sent, { one: 'Successfully sent # message', other: 'Successfully sent # messages' })}, ${plural(rejected, { one: '# rejected', other: '# rejected' })}`
                  : t`Stopped: ${sentText} of ${plural(total, { one: '# message', other: '# messages' })} sent, ${plural(rejected, { one: '# rejected', other: '# rejected' })}`}
          </p>
        </div>
        <button
          type="button"
          className="-me-2 -mt-2 grid size-11 shrink-0 place-items-center rounded text-lg text-slate-500 hover:bg-slate-100"
          aria-label={t`Close`}
          disabled={busy}
          onClick={act(closeJob)}
          data-testid="bulk-card-close"
        >
          ×
        </button>
      </div>
      {ways && job.marketing ? (
        <MarketingLine
          standard={formatNumber(ways.standard, i18n.locale)}
          marketing={formatNumber(ways.marketing, i18n.locale)}
          spent={
            job.marketing.spendMinor === null
              ? undefined
              : formatMoney(job.marketing.spendMinor, job.marketing.currency, i18n.locale)
          }
          budget={formatMoney(job.marketing.budgetMinor, job.marketing.currency, i18n.locale)}
        />
      ) : null}
      <div
        className="mt-2 h-2 overflow-hidden rounded bg-slate-100"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={view.percent}
      >
        <div
          className={`h-full ${view.phase === 'done' && job.state === 'finished' ? 'bg-green-600' : 'bg-brand-600'}`}
          style={{ width: `${view.percent}%` }}
        />
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-xs">
        <StateLabel job={job} stopCode={view.stopCode} stopDetail={view.stopDetail} />
        {job.rejected > 0 ? (
          <span className="text-red-700" data-testid="bulk-card-rejected">
            <Plural value={rejected} one="# rejected message" other="# rejected messages" />
          </span>
        ) : null}
        {skipped > 0 ? (
          <span className="text-amber-700" data-testid="bulk-card-skipped">
            <Plural value={skipped} one="# skipped" other="# skipped" />
          </span>
        ) : null}
        {delivered !== undefined ? (
          <span className="text-slate-600" data-testid="bulk-card-delivered">
            <Plural value={delivered} one="# delivered" other="# delivered" />
          </span>
        ) : null}
        {read !== undefined ? (
          <span className="text-slate-600" data-testid="bulk-card-read">
            <Plural value={read} one="# read" other="# read" />
          </span>
        ) : null}
      </div>
      {view.canResumeMarketing ? (
        <MarketingResume
          jobId={job.id}
          stopCode={view.stopCode}
          stopDetail={view.stopDetail}
          className={small}
        />
      ) : null}
      {view.canPause || view.canResume || view.canCancel ? (
        <div className="mt-2 flex gap-3">
          {view.canPause ? (
            <button
              type="button"
              className={small}
              disabled={busy}
              onClick={act(job.remote ? pauseServerJob : pauseJob)}
            >
              <Trans>Pause</Trans>
            </button>
          ) : null}
          {view.canResume ? (
            <button type="button" className={small} disabled={busy} onClick={act(resumeJob)}>
              <Trans>Resume</Trans>
            </button>
          ) : null}
          {view.canCancel ? (
            <button
              type="button"
              className={`${small} ms-auto`}
              disabled={busy}
              onClick={() => confirmCancelSend(job.id)}
              data-testid="bulk-card-cancel"
            >
              <Trans>Cancel</Trans>
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  )
}

/**
 * A page's send history: its sends that ended in the last 90 days (dismissed cards too), newest first, and
 * each one's report: sent, rejected by the network's reason, delivered, read, replied within 24 h, the
 * recipients and a CSV export. Read from the server, so every device of the owner shows the same.
 */
import { plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import {
  downloadReportCsv,
  sendHistoryQueryOptions,
  sendReportQueryOptions,
} from '../../../shared/api/send-history.ts'
import type { HistoryEntry, ReportFigures, ReportRecipient } from '../../../core/contracts/send-history.ts'
import { formatDateTime } from '../../../core/format/dates.ts'
import { formatNumber } from '../../../core/format/numbers.ts'
import { buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { closeModalsAndOpen } from '../../../shared/ui/modal-stack.ts'
import { HISTORY_PAGE } from './send-history-link.tsx'

export function SendHistoryBody() {
  const pageId = sessionStorage.getItem(HISTORY_PAGE) ?? ''
  const [open, setOpen] = useState<string>()
  return open ? (
    <SendReportView id={open} onBack={() => setOpen(undefined)} />
  ) : (
    <HistoryListView pageId={pageId} onOpen={setOpen} />
  )
}

function HistoryListView({ pageId, onOpen }: { pageId: string; onOpen: (id: string) => void }) {
  const { i18n } = useLingui()
  const history = useInfiniteQuery({
    ...sendHistoryQueryOptions(pageId),
    enabled: pageId !== '',
  })
  if (history.isPending) return <LoadingDots />
  const entries = history.data?.pages.flatMap((p) => p.data) ?? []
  return (
    <div className="flex min-w-0 flex-col gap-3" data-testid="send-history">
      <p className="text-sm text-slate-600">
        <Trans>The sends of this page that ended in the last 90 days, with their reports.</Trans>
      </p>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-700" data-testid="send-history-empty">
          <Trans>No sends ended in the last 90 days.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {entries.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                className="flex min-h-11 w-full min-w-0 flex-col items-start gap-1 rounded-lg border border-slate-200 bg-white p-3 text-start hover:bg-slate-50"
                onClick={() => onOpen(e.id)}
                data-testid="send-history-entry"
                data-job-id={e.id}
              >
                <span className="text-xs text-slate-500">
                  {formatDateTime(Date.parse(e.created_at), i18n.locale, 'medium')}
                </span>
                <span dir="auto" className="w-full truncate text-sm text-slate-800" data-truncate="preview">
                  {e.message}
                </span>
                <EntryLine entry={e} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {history.hasNextPage ? (
        <button
          type="button"
          className={buttonSecondary}
          disabled={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          <Trans>Show more</Trans>
        </button>
      ) : null}
    </div>
  )
}

function EntryLine({ entry }: { entry: HistoryEntry }) {
  const { t } = useLingui()
  const { sent, rejected } = entry.figures
  return (
    <span className="text-xs text-slate-600">
      {entry.state === 'finished' ? <Trans>Finished</Trans> : <Trans>Stopped</Trans>}
      {' · '}
      {t`${plural(sent, { one: '# sent', other: '# sent' })}, ${plural(rejected, { one: '# rejected', other: '# rejected' })}`}
    </span>
  )
}

function SendReportView({ id, onBack }: { id: string; onBack: () => void }) {
  const { i18n, t } = useLingui()
  const [exporting, setExporting] = useState(false)
  const report = useInfiniteQuery(sendReportQueryOptions(id))
  const back = (
    <button type="button" className={`${buttonSecondary} self-start`} onClick={onBack}>
      <span aria-hidden="true" className="rtl:-scale-x-100">
        ←
      </span>
      <Trans>All sends</Trans>
    </button>
  )
  if (report.isPending || !report.data)
    return (
      <div className="flex flex-col gap-3">
        {back}
        {report.isError ? null : <LoadingDots />}
      </div>
    )
  const first = report.data.pages[0]!
  const job = first.job
  const recipients = report.data.pages.flatMap((p) => p.recipients)
  const exportCsv = async () => {
    setExporting(true)
    try {
      await downloadReportCsv(id)
    } catch {
      // Nothing was saved; the button stays for another try.
    } finally {
      setExporting(false)
    }
  }
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="send-report">
      {back}
      <div className="min-w-0">
        <p dir="auto" className="text-xs text-slate-500">
          {job.page_name}
        </p>
        <p className="text-xs text-slate-500">
          {formatDateTime(Date.parse(job.created_at), i18n.locale, 'medium')}
        </p>
        <p dir="auto" className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-800">
          {job.message}
        </p>
      </div>
      <Figures figures={job.figures} />
      {first.rejected_by_reason.length > 0 ? (
        <section className="min-w-0">
          <h3 className="text-sm font-semibold text-slate-700">
            <Trans>Rejected, by the network&apos;s reason</Trans>
          </h3>
          <ul className="mt-1 flex flex-col gap-1" data-testid="send-report-reasons">
            {first.rejected_by_reason.map((r) => (
              <li key={r.reason} className="flex min-w-0 items-baseline gap-2 text-sm">
                <bdi className="min-w-0 flex-1 break-words text-slate-700">
                  {r.reason || t`No reason given`}
                </bdi>
                <span className="shrink-0 font-medium text-slate-800">
                  {formatNumber(r.count, i18n.locale)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="min-w-0">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-sm font-semibold text-slate-700">
            <Trans>Recipients</Trans>
          </h3>
          <button
            type="button"
            className={buttonSecondary}
            disabled={exporting}
            onClick={() => void exportCsv()}
            data-testid="send-report-csv"
          >
            <Trans>Export CSV</Trans>
          </button>
        </div>
        <ul className="mt-2 flex flex-col divide-y divide-slate-100" data-testid="send-report-recipients">
          {recipients.map((r) => (
            <RecipientRow key={r.recipient_id} recipient={r} pageId={job.page_id} />
          ))}
        </ul>
        {report.hasNextPage ? (
          <button
            type="button"
            className={`${buttonSecondary} mt-2 w-full`}
            disabled={report.isFetchingNextPage}
            onClick={() => void report.fetchNextPage()}
          >
            <Trans>Show more</Trans>
          </button>
        ) : null}
      </section>
    </div>
  )
}

function Figures({ figures }: { figures: ReportFigures }) {
  const { i18n, t } = useLingui()
  const items: [string, string, number][] = [
    ['sent', t`Sent`, figures.sent],
    ['rejected', t`Rejected`, figures.rejected],
    ['delivered', t`Delivered`, figures.delivered],
    ['read', t`Read`, figures.read],
    ['replied', t`Replied within 24 h`, figures.replied],
  ]
  if (figures.skipped > 0) items.splice(2, 0, ['skipped', t`Not sent`, figures.skipped])
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3" data-testid="send-report-figures">
      {items.map(([key, label, value]) => (
        <div key={key} className="min-w-0 rounded-lg bg-slate-50 p-2" data-figure={key}>
          <dt className="text-xs text-slate-600">{label}</dt>
          <dd className="text-lg font-semibold text-slate-900">{formatNumber(value, i18n.locale)}</dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * The inbox of the page with the chat of one customer open: `/{pageId}?chat="<psid>"`, quoted because the
 * router reads search values as JSON.
 */
function chatHref(pageId: string, customerId: string): string {
  return `/${encodeURIComponent(pageId)}?chat=${encodeURIComponent(JSON.stringify(customerId))}`
}

/** A recipient's name opens the chat with them in the history's place. */
function RecipientRow({ recipient: r, pageId }: { recipient: ReportRecipient; pageId: string }) {
  const { t } = useLingui()
  const status = r.status === 'sent' ? t`Sent` : r.status === 'rejected' ? t`Rejected` : t`Not sent`
  const marks = [r.replied ? t`Replied` : r.read ? t`Read` : r.delivered ? t`Delivered` : undefined].filter(
    (m): m is string => m !== undefined,
  )
  return (
    <li className="flex min-w-0 flex-col pb-1 text-sm" data-testid="send-report-recipient">
      {/* The name is the row's height: a target a thumb can hit. */}
      <div className="flex min-w-0 items-center gap-2">
        <a
          href={chatHref(pageId, r.recipient_id)}
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
            e.preventDefault()
            closeModalsAndOpen(chatHref(pageId, r.recipient_id))
          }}
          dir="auto"
          className="flex min-h-11 min-w-0 flex-1 items-center text-brand-700 underline-offset-2 hover:underline"
          data-testid="send-report-recipient-chat"
        >
          <span className="min-w-0 truncate" data-truncate="name">
            {r.name || r.recipient_id}
          </span>
        </a>
        <span className={`shrink-0 text-xs ${r.status === 'rejected' ? 'text-red-700' : 'text-slate-600'}`}>
          {[status, ...marks].join(' · ')}
        </span>
      </div>
      {r.reason ? <bdi className="text-xs break-words text-slate-500">{r.reason}</bdi> : null}
    </li>
  )
}

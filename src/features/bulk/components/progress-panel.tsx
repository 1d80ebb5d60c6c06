/**
 * The "Messages" panel of bulk progress cards, shown on every screen; it also starts this tab's sender.
 * It never takes the page's room: on a wide screen it is a column of its own beside the content (the layout
 * keeps the content at least 300 px wide); on a phone it is a strip under the content, one line
 * ("Sending 12 of 310") that opens to the cards, so the page above it stays whole and usable.
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import { PANELS_BESIDE, useMediaQuery } from '../../../shared/ui/use-media-query.ts'
import { useHeightVariable } from '../../../shared/ui/use-height-variable.ts'
import { formatNumber } from '../../../core/format/index.ts'
import { useCloseJob } from '../api/use-close-job.ts'
import { type CardJob, stripSummary } from '../model/card.ts'
import { useBulkJobs } from '../model/use-bulk-jobs.ts'
import { startBulkSender } from '../sender-host.ts'
import { ProgressCard } from './progress-card.tsx'
import { StateText } from './state-label.tsx'
import { serverJobsQueryOptions } from '../../../shared/bulk/server-jobs.ts'
import { useSession } from '../../../shared/session/store.ts'
import { useParams } from '@tanstack/react-router'
import { ofPage, withServerJobs } from '../model/server-jobs.ts'
import { SendHistoryLink } from './send-history-link.tsx'
import { scheduledQueryOptions } from '../api/queries.ts'
import { ScheduledList } from './scheduled-list.tsx'

// This module is loaded only for a signed-in user (the app shell loads it lazily): the sender starts as soon
// as it arrives rather than after the signed-in screen's first render, which a resumed job's first send
// would otherwise wait for, in a task of its own rather than the one that runs this chunk's code. The effect
// below starts it again if that start failed.
setTimeout(() => void startBulkSender())

export function BulkProgressPanel() {
  const local = useBulkJobs()
  const beside = useMediaQuery(PANELS_BESIDE)
  const { accounts } = useSession()
  const pageId = useParams({ strict: false, select: (p: { pageId?: string }) => p.pageId })
  useEffect(() => {
    void startBulkSender()
  }, [])
  // Every job of the owner as the server records them: the jobs this device does not hold show from it. The
  // live stream's progress events move them, whoever sends them (src/features/live), and a reconnected stream
  // has the list read again: it is never polled.
  const server = useQuery(serverJobsQueryOptions())
  const names = new Map(accounts.map((a) => [a.id, a.name]))
  // A page's screens show that page's jobs only.
  const list = ofPage(withServerJobs(local, server.data, names), pageId)
  // Scheduled sends show with the cards (the same query the list below reads: one request).
  const scheduled = useQuery({
    ...scheduledQueryOptions(),
    refetchInterval: 30_000,
  })
  const scheduledCount = scheduled.data?.length ?? 0
  const historyPage = pageId ?? list[0]?.pageId
  if (list.length === 0 && scheduledCount === 0) return null
  const refetch = () => void server.refetch()
  return beside ? (
    <SideColumn list={list} onServerChange={refetch} historyPage={historyPage} />
  ) : (
    <BottomStrip
      list={list}
      scheduledCount={scheduledCount}
      onServerChange={refetch}
      historyPage={historyPage}
    />
  )
}

interface CardsProps {
  list: readonly CardJob[]
  onServerChange: () => void
  /** The page whose send history the link opens. */
  historyPage: string | undefined
}

function Cards({ list, onServerChange, historyPage }: CardsProps) {
  return (
    <>
      <ScheduledList />
      <ul className="flex flex-col gap-2">
        {list.map((job) => (
          <ProgressCard key={job.id} job={job} onServerChange={onServerChange} />
        ))}
      </ul>
      {historyPage ? <SendHistoryLink pageId={historyPage} /> : null}
    </>
  )
}

function SideColumn(props: CardsProps) {
  return (
    <section
      className="flex w-72 shrink-0 flex-col gap-2 overflow-y-auto border-s border-slate-200 p-3"
      aria-labelledby="bulk-panel-title"
      data-testid="bulk-panel"
      data-layout="column"
    >
      <h2 id="bulk-panel-title" className="text-sm font-semibold text-slate-700">
        <Trans>Messages</Trans>
      </h2>
      <Cards {...props} />
    </section>
  )
}

const HELD: ReadonlySet<CardJob['state']> = new Set([
  'waiting_connection',
  'rate_limited',
  'needs_signin',
  'paused',
])

function BottomStrip(props: CardsProps & { scheduledCount: number }) {
  const { list, scheduledCount } = props
  const { i18n, t } = useLingui()
  // Notices stand clear of the strip (its height as `--bulk-strip-height`), never over it.
  const stripRef = useHeightVariable<HTMLElement>('--bulk-strip-height')
  const [open, setOpen] = useState(false)
  const [dismissing, setDismissing] = useState(false)
  const closeJob = useCloseJob()
  const cardsId = useId()
  const summary = stripSummary(list)
  // A send held up (offline, paused, waiting for a sign-in) says so on the collapsed line too.
  const held = summary.active ? list.find((j) => HELD.has(j.state)) : undefined
  const [sent, total, rejected] = [summary.sent, summary.total, summary.rejected].map((n) =>
    formatNumber(n, i18n.locale),
  )
  const percent = summary.total > 0 ? Math.min(100, Math.round((summary.sent / summary.total) * 100)) : 100
  const dismissAll = async () => {
    setDismissing(true)
    try {
      for (const id of summary.doneIds) await closeJob(id)
    } catch {
      // The API client has already told the user; the cards stay.
    } finally {
      setDismissing(false)
    }
  }
  return (
    <section
      ref={stripRef}
      className="shrink-0 border-t border-slate-200 bg-white shadow-[0_-2px_6px_rgba(15,23,42,0.08)]"
      aria-labelledby="bulk-panel-title"
      data-testid="bulk-panel"
      data-layout="strip"
      data-expanded={open}
    >
      <h2 id="bulk-panel-title" className="sr-only">
        <Trans>Messages</Trans>
      </h2>
      <div className="flex items-center gap-1 px-2">
        <button
          type="button"
          className="flex min-h-11 min-w-0 flex-1 items-center gap-2 rounded px-1 text-start"
          aria-expanded={open}
          aria-controls={cardsId}
          onClick={() => setOpen(!open)}
          data-testid="bulk-strip-toggle"
        >
          <span className="min-w-0 flex-1">
            {/* The line wraps rather than cut: a long language's words stay whole on a narrow phone. */}
            <span className="flex min-w-0 flex-wrap items-baseline gap-x-2">
              <span className="text-sm font-medium text-slate-800" data-testid="bulk-strip-summary">
                {list.length === 0 ? (
                  <Plural value={scheduledCount} one="# send scheduled" other="# sends scheduled" />
                ) : summary.active ? (
                  <Trans>
                    Sending {sent} of {total}
                  </Trans>
                ) : (
                  <Trans>
                    Sent {sent} of {total}, {rejected} rejected
                  </Trans>
                )}
              </span>
              {held ? (
                <span className="text-xs text-amber-800" data-testid="bulk-strip-held">
                  <StateText state={held.state} stopCode={held.stopReason?.split(':')[0]} />
                </span>
              ) : null}
            </span>
            <span className="mt-1 block h-1 overflow-hidden rounded bg-slate-100" aria-hidden="true">
              <span
                className={`block h-full ${summary.active ? 'bg-brand-600' : 'bg-green-600'}`}
                style={{ width: `${percent}%` }}
              />
            </span>
          </span>
          <span className="shrink-0 text-xs font-medium text-brand-700">
            {open ? <Trans>Hide</Trans> : <Trans>Show</Trans>}
          </span>
        </button>
        {!summary.active && summary.doneIds.length > 0 ? (
          <button
            type="button"
            className="min-h-11 min-w-11 rounded text-lg text-slate-500 hover:bg-slate-100"
            aria-label={t`Dismiss the finished sends`}
            disabled={dismissing}
            onClick={() => void dismissAll()}
            data-testid="bulk-strip-dismiss"
          >
            ×
          </button>
        ) : null}
      </div>
      <div
        id={cardsId}
        hidden={!open}
        className="max-h-[30dvh] overflow-y-auto px-3 pb-3"
      >
        <Cards {...props} />
      </div>
    </section>
  )
}

/** What a progress card shows for a job (docs/product-rules.md#bulk-send-progress). Pure. */
import type { BulkJobState } from '../../../device/db/db.ts'
import type { JobKind } from '../../../core/contracts/marketing-core.ts'
import type { Counts } from '../../../device/bulk/protocol.ts'

export interface CardJob extends Counts {
  id: string
  pageId?: string
  pageName: string
  text: string
  state: BulkJobState
  stopReason?: string
  createdAt: number
  /** What the job is (absent: standard): a marketing job is resumed by the server's marketing sender only. */
  kind?: JobKind
  /** How many recipients the network said received (read) it, once a receipt arrived. */
  delivered?: number
  read?: number
  /** A job reaching subscribers: marketing messages sent (of `sent`), and the spend against the budget. */
  marketing?: CardMarketing
  /**
   * A job this device does not hold, shown from the server's record: sent by the server, or held by another
   * device. Its progress is read-only; a server-held one is paused or cancelled through the server.
   */
  remote?: 'server' | 'device'
}

export interface CardMarketing {
  sent: number
  /** What the network reports spent (minor units); null before its first reading. */
  spendMinor: number | null
  budgetMinor: number
  currency: string
}

/** The card's split of the sent messages: standard (inside the window) and marketing. */
export function wayCounts(
  job: Pick<CardJob, 'sent' | 'marketing'>,
): { standard: number; marketing: number } | undefined {
  if (!job.marketing) return undefined
  const marketing = Math.min(job.marketing.sent, job.sent)
  return { standard: job.sent - marketing, marketing }
}

export interface CardView {
  phase: 'sending' | 'done'
  /**
   * The summary line: counts while sending, the success line only for a finished job, and a stopped line for
   * a job that stopped (cancelled, refused, or never started), never the success words.
   */
  headline: 'sending' | 'paused' | 'finished' | 'stopped'
  /** Processed share, 0–100, never above 100. */
  percent: number
  canPause: boolean
  canResume: boolean
  canCancel: boolean
  /**
   * Resumed by handing it back to the server's marketing sender: a job stopped for a marketing reason
   * (campaign paused, budget spent) once the owner fixed it, or a paused marketing job (rebuilt from the
   * server's record). Such a job never offers the device's Resume.
   */
  canResumeMarketing: boolean
  stopCode?: string
  stopDetail?: string
}

const ACTIVE: BulkJobState[] = ['queued', 'running', 'waiting_connection', 'rate_limited', 'needs_signin']

export function progressPercent(c: Counts): number {
  if (c.total <= 0) return 100
  return Math.min(100, Math.round(((c.sent + c.rejected + c.skipped) / c.total) * 100))
}

export function cardView(job: CardJob): CardView {
  const [code, ...detail] = (job.stopReason ?? '').split(':')
  const base = {
    phase: job.state === 'finished' || job.state === 'stopped' ? ('done' as const) : ('sending' as const),
    // Only a job that finished may read "Successfully sent"; a paused one says it is paused.
    headline:
      job.state === 'finished'
        ? ('finished' as const)
        : job.state === 'stopped'
          ? ('stopped' as const)
          : job.state === 'paused'
            ? ('paused' as const)
            : ('sending' as const),
    percent: progressPercent(job),
    ...(job.stopReason ? { stopCode: code, stopDetail: detail.join(':') } : {}),
  }
  if (job.remote) {
    // Not held here: the server's job is paused (taken back) or cancelled through the server; a job another
    // device holds is that device's to control.
    const onServer = job.remote === 'server' && job.state === 'on_server'
    return { ...base, canPause: onServer, canResume: false, canCancel: onServer, canResumeMarketing: false }
  }
  const active = ACTIVE.includes(job.state)
  const marketing = job.kind === 'marketing'
  return {
    ...base,
    // A job on the server is paused or cancelled by taking it back first (see api/job-controls.ts).
    canPause: active || job.state === 'on_server',
    canResume: job.state === 'paused' && !marketing,
    canCancel: active || job.state === 'paused' || job.state === 'on_server',
    canResumeMarketing:
      (job.state === 'stopped' && code === 'marketing') || (job.state === 'paused' && marketing),
  }
}

/** A progress event may be newer than the last Dexie read: the larger counts win, the event's state wins. */
export function overlay(
  job: CardJob,
  event: { state: BulkJobState; counts: Counts; stopReason?: string } | undefined,
): CardJob {
  if (!event) return job
  const processed = (c: Counts) => c.sent + c.rejected + c.skipped
  if (processed(event.counts) <= processed(job)) return job
  return { ...job, ...event.counts, state: event.state, stopReason: event.stopReason ?? job.stopReason }
}

export interface StripSummary {
  /** Some job is still sending (or waiting to): the strip says "Sending n of m". */
  active: boolean
  sent: number
  total: number
  rejected: number
  /** The jobs whose cards can be dismissed (finished or stopped). */
  doneIds: string[]
}

/**
 * The one line of the collapsed strip on a phone: the jobs still sending when there are any (their sent and
 * total added up), else every job's outcome.
 */
export function stripSummary(list: readonly CardJob[]): StripSummary {
  const done = list.filter((j) => cardView(j).phase === 'done')
  const active = list.filter((j) => cardView(j).phase === 'sending')
  const counted = active.length > 0 ? active : list
  const add = (key: 'sent' | 'total' | 'rejected') => counted.reduce((sum, j) => sum + j[key], 0)
  return {
    active: active.length > 0,
    sent: add('sent'),
    total: add('total'),
    rejected: add('rejected'),
    doneIds: done.map((j) => j.id),
  }
}

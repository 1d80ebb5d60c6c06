/**
 * Pause, resume, cancel and close from any tab: Dexie is changed, then the sender is woken to re-read it. A job
 * the server is sending is taken back first (its lease comes to this device and the server's send in flight is
 * recorded), left paused, then paused or cancelled here like any other.
 */
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { deleteBulkMessage, apiToken, isApiError, startMarketingJob } from '../../../shared/api'
import { takeBackJob } from '../../../device/bulk/handover.ts'
import { notify } from '../../../shared/notifications'
import { refreshedPageToken, retryPageTokensNow, sessionStore } from '../../../shared/session'
import { marketingRefusal } from './start-job.ts'
import { createSenderApi } from '../../../device/bulk/api-port.ts'
import { deleteJob, pauseRecord, resumeRecord, skipRest } from '../../../device/bulk/controls.ts'
import { jobs } from '../../../device/bulk/records.ts'
import { wakeSender } from '../sender-host.ts'

/** The server could not be asked to give the job back: it goes on sending there, and the owner is told. */
export class ServerUnreachable extends Error {
  constructor() {
    super('The server could not be reached to take the job back.')
    this.name = 'ServerUnreachable'
  }
}

/** A job the server holds comes back to this device, paused. Throws when the server cannot be asked. */
async function takeBackPaused(id: string): Promise<void> {
  if ((await jobs.get(id))?.state !== 'on_server') return
  await askTakeBack(id)
}

/** The server stops sending the job (its send in flight is recorded first). Throws when it cannot be asked. */
async function askTakeBack(id: string): Promise<void> {
  const back = await takeBackJob({ origin: location.origin, token: () => apiToken() ?? '' }, id, 'paused')
  if (back) return
  notify({
    kind: 'error',
    title: i18n._(msg`The server could not be reached`),
    message: i18n._(msg`The send goes on on the server. Try again when you are online.`),
  })
  throw new ServerUnreachable()
}

export async function pauseJob(id: string): Promise<void> {
  await takeBackPaused(id)
  await pauseRecord(id)
  wakeSender()
}

/**
 * The card's Resume, by the job's kind: a marketing job goes back to the server's marketing sender with its
 * campaign (never to this device's sender); any other is queued here again.
 */
export async function resumeJob(id: string): Promise<void> {
  if ((await jobs.get(id))?.kind === 'marketing') return resumeMarketingJob(id)
  await resumeRecord(id)
  // The owner acted: a page token the accounts list could not give is asked for again at once.
  retryPageTokensNow()
  wakeSender()
}

/** Resuming a marketing-stopped job was refused: `code` names the reason (`marketingReasonText`). */
export class MarketingResumeFailed extends Error {
  constructor(
    readonly code: string,
    /** The network's own words when the network refused it (`code` is then `network:<class>`). */
    readonly networkText?: string,
  ) {
    super(`the marketing send could not resume: ${code}`)
    this.name = 'MarketingResumeFailed'
  }
}

/** A job stopped for a marketing reason (campaign paused, budget spent) that the owner may resume. */
export function stoppedForMarketing(job: { state: string; stopReason?: string }): boolean {
  return job.state === 'stopped' && !!job.stopReason?.startsWith('marketing:')
}

/**
 * Resumes a marketing job: one a marketing failure stopped, once the owner fixed the cause (reactivated the
 * campaign, raised the budget in the ad account), or one rebuilt paused from the server's record.
 * `POST /messages/{id}/marketing` again reopens it on the server with its campaign and budget kept, and the
 * server's sender goes on where it stopped. Throws `MarketingResumeFailed`.
 */
export async function resumeMarketingJob(id: string): Promise<void> {
  const job = await jobs.get(id)
  if (!job || job.kind !== 'marketing' || !(stoppedForMarketing(job) || job.state === 'paused')) return
  // Without its campaign's budget (its start never reached the network) it cannot go on as marketing.
  if (!job.marketing) throw new MarketingResumeFailed('no_campaign')
  const listed = sessionStore.getState().accounts.find((a) => a.id === job.pageId)?.access_token
  const pageToken = listed ?? (await refreshedPageToken(job.pageId, 'bulk'))
  if (!pageToken) throw new MarketingResumeFailed('no_page_token')
  let answer: { lease?: number }
  try {
    answer = await startMarketingJob(id, {
      page_token: pageToken,
      budget: { kind: job.marketing.budgetKind, minor: job.marketing.budgetMinor },
      lease: job.serverLease ?? 0,
    })
  } catch (err) {
    const refusal = isApiError(err) ? marketingRefusal(err.body) : { code: 'no_connection' }
    throw new MarketingResumeFailed(refusal.code ?? 'start_failed', refusal.message)
  }
  // The server counts the rest again from where it stopped (its skipped count starts over).
  await jobs.update(id, {
    state: 'on_server',
    stopReason: undefined,
    skipped: 0,
    serverStateSynced: false,
    serverLease: typeof answer.lease === 'number' ? answer.lease : (job.serverLease ?? 0) + 1,
  })
}

/**
 * The Pause of a job the server sends that this device does not hold: the server stops sending it (the same
 * take-back as for a job held here). Whoever resumes it holds it from then on.
 */
export async function pauseServerJob(id: string): Promise<void> {
  await askTakeBack(id)
}

export async function cancelJob(id: string): Promise<void> {
  if (!(await jobs.get(id))) return cancelServerJob(id)
  await takeBackPaused(id)
  // Ended on the server meanwhile: nothing is left to cancel.
  const job = await jobs.get(id)
  if (job?.state === 'finished' || job?.state === 'stopped') return
  await skipRest(id, 'cancelled')
  wakeSender()
  try {
    await createSenderApi(location.origin, () => apiToken() ?? '').setState(id, 'stopped', 'cancelled')
    await jobs.update(id, { serverStateSynced: true })
  } catch {
    // The sender tells the server when it next starts.
  }
}

/** Cancels a job the server sends that this device does not hold: taken back from the server, then stopped. */
async function cancelServerJob(id: string): Promise<void> {
  await askTakeBack(id)
  await createSenderApi(location.origin, () => apiToken() ?? '').setState(id, 'stopped', 'cancelled')
}

/** The close (x): deletes the server record, then the local job (kept if the server cannot be reached). */
export async function closeJob(id: string): Promise<void> {
  await deleteBulkMessage(id)
  await deleteJob(id)
  wakeSender()
}

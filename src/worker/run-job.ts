/**
 * One job, recipient by recipient, as the pipeline goes (docs/architecture.md#a-bulk-job-end-to-end):
 * write-ahead `sending`, the send (the image once as a reusable attachment, then the text), the result with
 * its queued touch, the progress, and a persisted random wait. Each send is claimed in a transaction that
 * re-reads the job (lease and state) and writes the `sending` row, and the job is read again after every
 * wait, so pause/cancel from any tab, a takeover and a reload are honoured without reading the job twice per
 * message.
 */
import { sendMode } from '../shared/bulk/allowance.ts'
import { deviceSends } from '../shared/bulk/core/kinds.ts'
import { handleFailure } from './failures.ts'
import {
  applyFlush,
  finish,
  flushAndApply,
  pauseOffline,
  publish,
  setAndPublish,
  stopForAllowance,
} from './job-effects.ts'
import { claimNext, type ClaimMemory } from './claim.ts'
import { backToPending, recordResult } from '../shared/bulk/job-steps.ts'
import { pacingDelay, remainingWait } from '../shared/bulk/core/pacer.ts'
import { bulkMessage } from '../shared/bulk/protocol.ts'
import { reconcile } from '../shared/bulk/core/reconcile.ts'
import { sendOne, textWithFooterFound } from './send-one.ts'
import { firstInState, jobs, type JobRecord } from '../shared/bulk/records.ts'
import type { RunDeps, RunOutcome, Streaks } from './run-deps.ts'
import { syncRecipients } from '../shared/bulk/sync-recipients.ts'
import { arrivalText, jobContent, personalText, recipientContent } from '../shared/graph/delivery.ts'
import { waitForToken } from './token-wait.ts'
import { JobLease, type Hold } from './lease.ts'
import { deliverTouch, settleAcknowledged } from '../shared/bulk/touch-outbox.ts'

export type { RunDeps, RunOutcome } from './run-deps.ts'

/** Why a device paused a job: its marketing recipients are sent by the server only. */
export const SERVER_ONLY = 'marketing:server_only'
/** Why a device paused a job: another device of the owner holds its lease. */
export const HELD_ELSEWHERE = 'held_elsewhere'

export async function runJob(deps: RunDeps, jobId: string, lease: number): Promise<RunOutcome> {
  const streaks: Streaks = {
    offline: 0,
    throttle: 0,
    server: 0,
    uncertain: true,
    outboxDirty: true,
    tokenAsks: 0,
    tokenAskAt: 0,
    acknowledged: [],
  }
  const hold = new JobLease(deps, jobId)
  try {
    return await run(deps, jobId, lease, streaks, hold)
  } finally {
    hold.stop()
    await settleAcknowledged(streaks.acknowledged).catch(() => undefined)
  }
}

async function run(
  deps: RunDeps,
  jobId: string,
  lease: number,
  streaks: Streaks,
  hold: JobLease,
): Promise<RunOutcome> {
  // The job as last read inside a transaction; dropped (read again) after any wait or failure, and
  // refreshed by every claim, which checks the lease and state in the same transaction as the write-ahead.
  let cached: JobRecord | undefined
  const memory: ClaimMemory = { retries: true }
  for (;;) {
    if (streaks.outboxDirty) {
      await settleAcknowledged(streaks.acknowledged)
      streaks.outboxDirty = (await flushAndApply(deps, jobId)).pending
    }
    const job = cached ?? (await jobs.get(jobId))
    cached = undefined
    if (!job) return 'gone'
    if (job.lease !== lease || deps.signal?.aborted) return 'lost'
    if (job.state === 'paused') {
      // Paused by the owner: the server must not carry it on when the lease lapses.
      await hold.release(job)
      return job.state
    }
    if (job.state === 'stopped' || job.state === 'finished') return job.state
    // Handed to the server: this device sends nothing more of it until it is taken back.
    if (job.state === 'on_server') return 'paused'
    // Marketing messages are sent by the server only (the campaign and the subscriber tokens live there).
    if (!deviceSends(job.kind) || job.marketing) return await holdForServer(deps, job)
    const token = deps.pageToken(job.pageId)
    if (!token) {
      await waitForToken(deps, job, streaks)
      continue
    }
    if (!job.recipientsSynced) {
      if (!(await syncRecipients(deps.api, job.id))) {
        await pauseOffline(deps, job, streaks)
        continue
      }
    }
    // A device sends only while it holds the job's lease on the server.
    const held = await hold.ensure(job)
    if (held === 'wait') {
      await deps.sleep(hold.retryMs())
      continue
    }
    if (held !== 'held') {
      const outcome = await leaseLost(deps, job, held, streaks)
      if (outcome) return outcome
      continue
    }
    const wait = remainingWait(job.nextSendAt, deps.now())
    if (wait > 0) {
      await deps.sleep(wait)
      continue
    }
    try {
      const step = await nextStep(deps, job, lease, token, streaks, memory, hold)
      if (step === 'done') {
        await settleAcknowledged(streaks.acknowledged)
        return await finish(deps, job)
      }
      if (step === 'stop') return await stopForAllowance(deps, job)
      if (step === 'server_only') return await holdForServer(deps, job)
      if (
        step === 'server' ||
        step === 'elsewhere' ||
        step === 'gone' ||
        step === 'offline' ||
        step === 'wait'
      ) {
        memory.retries = true
        const outcome = await leaseLost(deps, job, step, streaks)
        if (outcome) return outcome
        continue
      }
      if (step !== 'again') {
        cached = step
        // A send went through with the token: the next missing token is asked for at once.
        streaks.tokenAsks = 0
        streaks.tokenAskAt = 0
      }
      streaks.offline = 0
    } catch (err) {
      // A failure may send its recipient back to pending.
      memory.retries = true
      streaks.uncertain = true
      streaks.outboxDirty = true
      const outcome = await handleFailure(deps, job, err, streaks)
      if (outcome) return outcome
    }
  }
}

/** The job after a send (still current, the loop goes on without reading it), or what to do next. */
type Step = JobRecord | 'again' | 'done' | 'stop' | 'server_only' | Exclude<Hold, 'held'>

async function nextStep(
  deps: RunDeps,
  job: JobRecord,
  lease: number,
  token: string,
  streaks: Streaks,
  memory: ClaimMemory,
  hold: JobLease,
): Promise<Step> {
  streaks.current = undefined
  const r = streaks.uncertain ? await firstInState(job.id, 'sending') : undefined
  if (!r) streaks.uncertain = false
  if (r) {
    // Uncertain: find out whether it went out before anything is retried.
    const text = arrivalText(
      recipientContent(
        jobContent(job.contentKind, job.optinTitle, job.utility),
        r.name,
        job.nameFallback ?? '',
      ),
      personalText(job.text, r.name, job.nameFallback ?? ''),
    )
    const found = await reconcile(deps.graph, job.pageId, token, r.conversationId, text, r.attemptAt ?? 0)
    const branded = r.branded ?? false
    const textFound =
      found.textSent ||
      (branded && job.contentKind !== 'optin_request' && (await textWithFooterFound(deps, job, token, r)))
    if (textFound) {
      streaks.outboxDirty = true
      await recordResult({
        job,
        recipient: r,
        ok: true,
        branded,
        now: deps.now(),
        nextSendAt: job.nextSendAt,
        messageId: found.textSent ? found.textMessageId : undefined,
      })
      publish(deps, job.id)
      return 'again'
    }
    // Not sent: it goes back to pending, and the claim below (the lowest pending first) takes it again.
    await backToPending(r.key, { imageSent: r.imageSent || found.imageSent })
    memory.retries = true
  }
  const claim = await claimNext(
    job.id,
    lease,
    deps.now(),
    (order, fresh) =>
      sendMode(order, fresh.brandedFrom, deps.subscription(), fresh.brandedAuthorised ?? false),
    memory,
  )
  if (claim.kind === 'stale') return 'again'
  if (claim.kind === 'stop') return 'stop'
  if (claim.kind === 'server_only') return 'server_only'
  if (claim.kind === 'empty') {
    if (!claim.sending) return 'done'
    // A recipient is still uncertain: look at it on the next pass rather than finishing.
    streaks.uncertain = true
    return 'again'
  }
  const { job: current, recipient, branded } = claim
  // The write-ahead on the server too: a holder whose lease lapsed or moved on sends nothing.
  const reserved = await hold.reserve(current, recipient, branded)
  if (reserved !== 'held') {
    await backToPending(recipient.key)
    return reserved
  }
  streaks.current = recipient
  const messageId = await sendOne(deps, current, recipient, token, branded)
  const nextSendAt = deps.now() + pacingDelay(deps.random, deps.pacingScale)
  const recorded = await recordResult({
    job: current,
    recipient,
    ok: true,
    branded,
    now: deps.now(),
    nextSendAt,
    acknowledged: streaks.acknowledged,
    messageId,
  })
  streaks.acknowledged.length = 0
  if (!recorded) return 'again'
  Object.assign(current, { sent: recorded.counts.sent, rejected: recorded.counts.rejected, nextSendAt })
  deps.channel.post(bulkMessage.progress(job.id, 'running', recorded.counts))
  const flushed = await deliverTouch(deps.api, recorded.entry, undefined, streaks.acknowledged)
  applyFlush(deps, flushed)
  if (flushed.pending) streaks.outboxDirty = true
  return current
}

/** The lease is not held: wait for the connection, or end the run to whoever holds the job now. */
async function leaseLost(
  deps: RunDeps,
  job: JobRecord,
  why: Exclude<Hold, 'held'>,
  streaks: Streaks,
): Promise<RunOutcome | undefined> {
  switch (why) {
    case 'wait':
      return undefined
    case 'offline':
      await pauseOffline(deps, job, streaks)
      return undefined
    case 'server':
      // The server took it (the lease lapsed): the card says so, and the owner may take it back.
      await setAndPublish(deps, job, 'on_server')
      return 'paused'
    case 'elsewhere':
      await setAndPublish(deps, job, 'paused', { stopReason: HELD_ELSEWHERE })
      return 'paused'
    case 'gone':
      await setAndPublish(deps, job, 'stopped', { stopReason: 'gone' })
      return 'gone'
  }
}

/**
 * A job with marketing recipients is the server's to send: this device pauses it (nothing is written for the
 * recipient) and the owner's start hands it over (`POST /messages/{id}/marketing`).
 */
async function holdForServer(deps: RunDeps, job: JobRecord): Promise<RunOutcome> {
  await setAndPublish(deps, job, 'paused', { stopReason: SERVER_ONLY })
  return 'paused'
}

/**
 * One job, recipient by recipient, as architecture.md's pipeline says: write-ahead `sending`, the send (the
 * image once as a reusable attachment, then the text), the result with its queued touch, the progress, and a
 * persisted random wait. Every step re-reads Dexie, so pause/cancel from any tab and a reload are honoured.
 */
import { Dexie } from 'dexie'
import type { GraphErrorKind } from '../shared/graph/types.ts'
import { BRANDED_FOOTER, sendMode } from './allowance.ts'
import { backToPending, LeaseLost, markSending, recordResult, setJobState, skipRest } from './job-steps.ts'
import {
  backoff,
  pacingDelay,
  remainingWait,
  RETRY_BASE_MS,
  RETRY_MAX_MS,
  THROTTLE_BASE_MS,
  THROTTLE_MAX_MS,
  TRANSIENT_MAX_ATTEMPTS,
} from './pacer.ts'
import { bulkMessage, type BulkChannel } from './protocol.ts'
import { reconcile } from './reconcile.ts'
import {
  countInState,
  firstInState,
  jobs,
  recipients,
  type JobRecord,
  type RecipientRecord,
} from './records.ts'
import type { SenderApi, SenderGraph, Subscription } from './ports.ts'
import { syncRecipients } from './sync-recipients.ts'
import { deliverTouch, flushTouches, type FlushResult } from './touch-outbox.ts'

export interface RunDeps {
  graph: SenderGraph
  api: SenderApi
  channel: BulkChannel
  pageToken(pageId: string): string | undefined
  /** The page token failed (auth): forget it until a tab hands a fresh one. */
  dropPageToken(pageId: string): void
  subscription(): Subscription
  setSubscription(sub: Subscription): void
  now(): number
  random(): number
  /** Resolves after `ms`, or earlier when something wakes the sender (control, online, tokens). */
  sleep(ms: number): Promise<void>
  pacingScale: number
  /** The holder is going away (its tab closes); stop at the next step. */
  signal?: AbortSignal
}

export type RunOutcome = 'finished' | 'stopped' | 'paused' | 'lost' | 'gone'

/** How long a job waits for a fresh page token before looking again (a tab's answer wakes it sooner). */
const TOKEN_WAIT_MS = 30_000

interface Streaks {
  offline: number
  throttle: number
  server: number
  /** The recipient whose send is in flight, so a failure is charged to the right one. */
  current?: RecipientRecord
  /** Whether a recipient may be left `sending` (at the start, after any failure): only then is it looked for. */
  uncertain: boolean
  /** Whether queued touches may wait in the outbox (at the start, after a failed or indirect touch). */
  outboxDirty: boolean
}

export async function runJob(deps: RunDeps, jobId: string, lease: number): Promise<RunOutcome> {
  const streaks: Streaks = { offline: 0, throttle: 0, server: 0, uncertain: true, outboxDirty: true }
  for (;;) {
    if (streaks.outboxDirty) streaks.outboxDirty = (await flushAndApply(deps, jobId)).pending
    const job = await jobs.get(jobId)
    if (!job) return 'gone'
    if (job.lease !== lease || deps.signal?.aborted) return 'lost'
    if (job.state === 'paused' || job.state === 'stopped' || job.state === 'finished') return job.state
    const token = deps.pageToken(job.pageId)
    if (!token) {
      if (job.state !== 'needs_signin') await setAndPublish(deps, job, 'needs_signin')
      deps.channel.post(bulkMessage.needToken(job.pageId))
      await deps.sleep(TOKEN_WAIT_MS)
      continue
    }
    if (!job.recipientsSynced) {
      if (!(await syncRecipients(deps.api, job.id))) {
        await pauseOffline(deps, job, streaks)
        continue
      }
    }
    const wait = remainingWait(job.nextSendAt, deps.now())
    if (wait > 0) {
      await deps.sleep(wait)
      continue
    }
    try {
      const step = await nextStep(deps, job, token, streaks)
      if (step === 'done') return await finish(deps, job)
      if (step === 'stop') return await stopForAllowance(deps, job)
      streaks.offline = 0
    } catch (err) {
      if (err instanceof LeaseLost) return 'lost'
      streaks.uncertain = true
      streaks.outboxDirty = true
      const outcome = await handleFailure(deps, job, err, streaks)
      if (outcome) return outcome
    }
  }
}

type Step = 'sent' | 'done' | 'stop'

async function nextStep(deps: RunDeps, job: JobRecord, token: string, streaks: Streaks): Promise<Step> {
  streaks.current = undefined
  let r = streaks.uncertain ? await firstInState(job.id, 'sending') : undefined
  if (!r) streaks.uncertain = false
  if (r) {
    // Uncertain: find out whether it went out before anything is retried.
    const found = await reconcile(deps.graph, job.pageId, token, r.conversationId, job.text, r.attemptAt ?? 0)
    const branded = r.branded ?? false
    const textFound = found.textSent || (branded && (await textWithFooterFound(deps, job, token, r)))
    if (textFound) {
      streaks.outboxDirty = true
      await recordResult({
        job,
        recipient: r,
        ok: true,
        branded,
        now: deps.now(),
        nextSendAt: job.nextSendAt,
      })
      publish(deps, job.id)
      return 'sent'
    }
    await backToPending(r.key, { imageSent: r.imageSent || found.imageSent })
    r = await recipients.get(r.key)
  } else {
    r = await firstInState(job.id, 'pending')
  }
  if (!r) return (await countInState(job.id, 'sending')) > 0 ? 'sent' : 'done'
  const mode = sendMode(r.order, job.brandedFrom, deps.subscription(), job.brandedAuthorised ?? false)
  if (mode === 'stop') return 'stop'
  const branded = mode === 'branded'
  streaks.current = r
  await markSending(job.id, r.key, job.lease, deps.now(), branded)
  await sendOne(deps, job, r, token, branded)
  const nextSendAt = deps.now() + pacingDelay(deps.random, deps.pacingScale)
  const recorded = await recordResult({ job, recipient: r, ok: true, branded, now: deps.now(), nextSendAt })
  if (recorded) {
    deps.channel.post(bulkMessage.progress(job.id, 'running', recorded.counts))
    const flushed = await deliverTouch(deps.api, recorded.entry)
    applyFlush(deps, flushed)
    if (flushed.pending) streaks.outboxDirty = true
  }
  return 'sent'
}

async function textWithFooterFound(deps: RunDeps, job: JobRecord, token: string, r: RecipientRecord) {
  const found = await reconcile(
    deps.graph,
    job.pageId,
    token,
    r.conversationId,
    job.text + BRANDED_FOOTER,
    r.attemptAt ?? 0,
  )
  return found.textSent
}

async function sendOne(deps: RunDeps, job: JobRecord, r: RecipientRecord, token: string, branded: boolean) {
  const tagging = job.tag
    ? { messagingType: job.messagingType, tag: job.tag }
    : { messagingType: job.messagingType }
  if (job.imageUrl && !r.imageSent) {
    let attachmentId = (await jobs.get(job.id))?.attachmentId
    if (!attachmentId) {
      attachmentId = (await deps.graph.uploadAttachment(job.pageId, token, job.imageUrl)).attachment_id
      await jobs.update(job.id, { attachmentId })
    }
    await deps.graph.send(job.pageId, token, {
      recipientId: r.recipientId,
      ...tagging,
      attachment: { attachmentId },
    })
    await recipients.update(r.key, { imageSent: true })
  }
  const text = branded ? job.text + BRANDED_FOOTER : job.text
  await deps.graph.send(job.pageId, token, { recipientId: r.recipientId, ...tagging, text })
}

function errorKind(err: unknown): GraphErrorKind {
  const kind = (err as { kind?: unknown } | null)?.kind
  if (typeof kind === 'string') return kind as GraphErrorKind
  return err instanceof TypeError ? 'network' : 'transient'
}

async function handleFailure(
  deps: RunDeps,
  job: JobRecord,
  err: unknown,
  streaks: Streaks,
): Promise<RunOutcome | undefined> {
  if (err instanceof Dexie.DexieError) {
    // Storage failed (a connection lost on wake): nothing is sent that cannot be recorded. A recipient left
    // `sending` is reconciled on the next pass; the step is retried after a pause.
    console.warn('bulk sender storage error', err)
    streaks.server++
    await deps.sleep(backoff(streaks.server, RETRY_BASE_MS, RETRY_MAX_MS, deps.random))
    return undefined
  }
  const kind = errorKind(err)
  const message = err instanceof Error ? err.message : String(err)
  const r = streaks.current
  const fresh = r ? await recipients.get(r.key) : undefined
  const sending = fresh?.state === 'sending'
  switch (kind) {
    case 'network':
      // The recipient stays `sending`: it is reconciled before any retry.
      await pauseOffline(deps, job, streaks)
      return undefined
    case 'throttle': {
      if (r && sending) await backToPending(r.key)
      streaks.throttle++
      const retryAfter = (err as { retryAfterMs?: number }).retryAfterMs
      const wait =
        retryAfter ??
        backoff(streaks.throttle, THROTTLE_BASE_MS, THROTTLE_MAX_MS, deps.random, deps.pacingScale)
      await setAndPublish(deps, job, 'rate_limited', { nextSendAt: deps.now() + wait })
      return undefined
    }
    case 'auth':
      if (r && sending) await backToPending(r.key)
      deps.dropPageToken(job.pageId)
      await setAndPublish(deps, job, 'needs_signin')
      return undefined
    case 'page_blocked':
    case 'config':
      if (r && sending) await backToPending(r.key)
      await setAndPublish(deps, job, 'stopped', { stopReason: `${kind}:${message}` })
      await tellServer(deps, job.id, 'stopped', `${kind}: ${message}`)
      return 'stopped'
    case 'outside_window':
    case 'recipient_gone':
      if (r && sending) await reject(deps, job, r, message)
      return undefined
    default: {
      if (!r || !sending) {
        // Not a send that failed (reading for reconciliation): wait and look again.
        streaks.server++
        await setAndPublish(deps, job, job.state, {
          nextSendAt:
            deps.now() + backoff(streaks.server, RETRY_BASE_MS, RETRY_MAX_MS, deps.random, deps.pacingScale),
        })
        return undefined
      }
      if ((fresh?.attempts ?? 0) >= TRANSIENT_MAX_ATTEMPTS) {
        await reject(deps, job, r, message)
        return undefined
      }
      await backToPending(r.key)
      const wait = backoff(fresh?.attempts ?? 1, RETRY_BASE_MS, RETRY_MAX_MS, deps.random, deps.pacingScale)
      await setAndPublish(deps, job, job.state, { nextSendAt: deps.now() + wait })
      return undefined
    }
  }
}

async function reject(deps: RunDeps, job: JobRecord, r: RecipientRecord, message: string) {
  const nextSendAt = deps.now() + pacingDelay(deps.random, deps.pacingScale)
  await recordResult({
    job,
    recipient: r,
    ok: false,
    branded: false,
    error: message,
    now: deps.now(),
    nextSendAt,
  })
  deps.channel.post(bulkMessage.rejected(job.id, r.name, message))
  publish(deps, job.id)
}

async function pauseOffline(deps: RunDeps, job: JobRecord, streaks: Streaks) {
  streaks.offline++
  await setAndPublish(deps, job, 'waiting_connection')
  // The `online` event wakes the sleep early.
  await deps.sleep(backoff(streaks.offline, RETRY_BASE_MS, RETRY_MAX_MS, deps.random))
}

async function finish(deps: RunDeps, job: JobRecord): Promise<RunOutcome> {
  await setAndPublish(deps, job, 'finished')
  await flushAndApply(deps, job.id)
  await tellServer(deps, job.id, 'finished')
  return 'finished'
}

async function stopForAllowance(deps: RunDeps, job: JobRecord): Promise<RunOutcome> {
  await skipRest(job.id, 'no_messages')
  publish(deps, job.id)
  await tellServer(deps, job.id, 'stopped', 'no_messages')
  return 'stopped'
}

async function tellServer(deps: RunDeps, jobId: string, state: 'finished' | 'stopped', reason?: string) {
  try {
    await deps.api.setState(jobId, state, reason)
    await jobs.update(jobId, { serverStateSynced: true })
  } catch {
    // Retried when the sender next starts (see sender.ts).
  }
}

async function flushAndApply(deps: RunDeps, jobId: string): Promise<FlushResult> {
  const flushed = await flushTouches(deps.api, jobId)
  applyFlush(deps, flushed)
  return flushed
}

function applyFlush(deps: RunDeps, flushed: FlushResult) {
  if (flushed.subscription) {
    deps.setSubscription(flushed.subscription)
    deps.channel.post(bulkMessage.allowance(flushed.subscription))
  }
  const sub = deps.subscription()
  if (flushed.exhausted && sub) deps.setSubscription({ ...sub, available_messages: 0 })
}

async function setAndPublish(
  deps: RunDeps,
  job: JobRecord,
  state: JobRecord['state'],
  extra: Parameters<typeof setJobState>[2] = {},
) {
  await setJobState(job.id, state, extra)
  job.state = state
  publish(deps, job.id)
}

export function publish(deps: Pick<RunDeps, 'channel'>, jobId: string) {
  void jobs.get(jobId).then((j) => {
    if (!j) return
    const counts = { sent: j.sent, rejected: j.rejected, skipped: j.skipped, total: j.total }
    deps.channel.post(bulkMessage.progress(j.id, j.state, counts, j.stopReason))
  })
}

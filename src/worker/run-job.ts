/**
 * One job, recipient by recipient, as architecture.md's pipeline says: write-ahead `sending`, the send (the
 * image once as a reusable attachment, then the text), the result with its queued touch, the progress, and a
 * persisted random wait. Every step re-reads Dexie, so pause/cancel from any tab and a reload are honoured.
 */
import { BRANDED_FOOTER, sendMode } from './allowance.ts'
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
import { backToPending, LeaseLost, markSending, recordResult } from './job-steps.ts'
import { pacingDelay, remainingWait } from './pacer.ts'
import { bulkMessage } from './protocol.ts'
import { reconcile } from './reconcile.ts'
import {
  countInState,
  firstInState,
  jobs,
  recipients,
  type JobRecord,
  type RecipientRecord,
} from './records.ts'
import { TOKEN_WAIT_MS, type RunDeps, type RunOutcome, type Streaks } from './run-deps.ts'
import { syncRecipients } from './sync-recipients.ts'
import { deliverTouch } from './touch-outbox.ts'

export type { RunDeps, RunOutcome } from './run-deps.ts'

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
  if (!r) {
    if ((await countInState(job.id, 'sending')) === 0) return 'done'
    // A recipient is still uncertain: look at it on the next pass rather than finishing.
    streaks.uncertain = true
    return 'sent'
  }
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

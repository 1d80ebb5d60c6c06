/**
 * The one sender of a bulk job, run by both sides: the device's worker against IndexedDB and the server against
 * SQL. It reads the job, reconciles an uncertain send before anything is retried, claims the next recipient
 * with its write-ahead under the lease epoch, sends it, records the result with that epoch (a store refuses a
 * stale one), applies the one failure policy, and keeps the persisted pacing wait, until the job finishes,
 * stops, pauses or goes to another holder. What differs per side comes in as the store and the ports.
 */
import { BROADCAST_METADATA } from '../contracts/conversation-states.ts'
import type { JobKind, RecipientWay } from '../contracts/marketing-core.ts'
import type { GraphErrorKind } from '../graph/types.ts'
import type { UtilityContent } from '../graph/template.ts'
import {
  arrivalText,
  jobContent,
  optInPayload,
  personalText,
  recipientContent,
  sendContent,
} from '../graph/delivery.ts'
import { BRANDED_FOOTER } from './allowance.ts'
import type { SenderGraph } from './ports.ts'
import { planFailure, type FailureAction } from './failure-policy.ts'
import { backoff, pacingDelay, remainingWait, RETRY_BASE_MS, RETRY_MAX_MS } from './pacer.ts'
import { reconcile } from './reconcile.ts'

/** A job as the machine reads it, with the same names on both sides. */
export interface MachineJob {
  id: string
  pageId: string
  kind: JobKind
  /** Open (sendable), paused by the owner, ended, or sent by another side (the server, or the device). */
  phase: 'open' | 'paused' | 'stopped' | 'finished' | 'away'
  /** The lease epoch the job holds now: a run whose epoch differs has lost it. */
  lease: number
  /** The persisted end of the pacing wait (epoch ms; 0: none). */
  nextSendAt: number
  text: string
  imageUrl?: string | undefined
  attachmentId?: string | undefined
  tag?: string | undefined
  messagingType: 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG'
  contentKind?: 'text' | 'optin_request' | 'utility' | undefined
  optinTitle?: string | undefined
  utility?: UtilityContent | undefined
  nameFallback?: string | undefined
}

/** A recipient as the machine sends it. */
export interface MachineRecipient {
  recipientId: string
  name: string
  conversationId: string
  way?: RecipientWay | undefined
  /** Sends that answered a transient error (only these count towards rejecting it). */
  failures?: number | undefined
  /** When its send was attempted (the write-ahead). */
  attemptAt?: number | undefined
  branded?: boolean | undefined
  /** The image went out; only the text remains. */
  imageSent?: boolean | undefined
}

/** A recipient's result: delivered (with the network's message id when known), or refused and why. */
export type Outcome = { ok: true; messageId?: string | undefined } | { ok: false; error: string }

export type Claim<J, R> =
  /** The lease moved on or the job is no longer open, or a recipient is still uncertain: look again. */
  | { kind: 'again' }
  /** No recipient is left: the job is done. */
  | { kind: 'done' }
  /** The allowance is spent and no branded messages: the job stops before this recipient. */
  | { kind: 'stop' }
  /** The next recipient is not for this side to send (another kind, a marketing message on a device). */
  | { kind: 'mismatch' }
  /**
   * The page's pacer is taken: its wait is not over (until then), or another job of the page is sending (until
   * that send is recorded: unknown).
   */
  | { kind: 'busy'; until: number | undefined }
  /** Claimed: its write-ahead is written under the epoch; `job` is the job as re-read in that transaction. */
  | { kind: 'recipient'; recipient: R; job?: J }

/** The job's storage, with its field names; every write under the lease epoch that runs it. */
export interface JobStore<J extends MachineJob, R extends MachineRecipient> {
  read(): Promise<J | undefined>
  /** The first recipient whose send is uncertain (attempted without a result), and until when a send may be on its way. */
  uncertain(job: J): Promise<{ recipient: R; busyUntil?: number | undefined } | undefined>
  /** The next recipient and its write-ahead, in one transaction that checks the epoch and the job's state. */
  claim(job: J, epoch: number): Promise<Claim<J, R>>
  /**
   * The result and the next look at the job (the pacing wait), under the epoch: 'stale' when the epoch moved
   * on (nothing is written), 'refused' when the allowance refused it, 'repeat' when it was recorded already.
   */
  record(
    job: J,
    r: R,
    outcome: Outcome,
    epoch: number,
    nextSendAt: number | undefined,
  ): Promise<'recorded' | 'repeat' | 'stale' | 'refused'>
  /** Nothing went out (or it may not have): the recipient waits for another try. */
  backToPending(job: J, r: R, changes: { imageSent?: boolean; failures?: number }): Promise<void>
  /** Whether `r` is still attempted without a result, and its transient failures so far. */
  inFlight(job: J, r: R): Promise<{ sending: boolean; failures: number }>
  /** The send of this run failed: none of its own is in flight any more. */
  sendFailed?(job: J, epoch: number): Promise<void>
  /** The next look at the job, and what it shows meanwhile (undefined: its state is kept). */
  wait(
    job: J,
    epoch: number,
    at: number,
    state?: 'running' | 'waiting_connection' | 'rate_limited',
  ): Promise<void>
  imageWent(job: J, r: R): Promise<void>
  attachment(job: J): Promise<string | undefined>
  setAttachment(job: J, attachmentId: string): Promise<void>
  finish(job: J): Promise<void>
  /** The job stops; `skipRest` says the recipients left are counted as skipped (the allowance ran out). */
  stop(job: J, reason: string, skipRest: boolean): Promise<void>
  /** What the store remembers between steps may be stale (a failure, the lease moved): read it again. */
  forget?(): void
}

/** How a run ends: the job finished, stopped, paused, went elsewhere or away, waits for a token, or continues later. */
export type MachineEnd =
  | { end: 'finished' | 'stopped' | 'paused' | 'lost' | 'gone' | 'away' | 'needs_token' }
  | { end: 'continue'; at: number }

/** Whether the run goes on: undefined (look again) or how it ends. */
export type Next = MachineEnd | undefined

/** The lease of a side that holds it over the network (the device's); the server's lives in its store. */
export interface HoldPort<J, R> {
  /** Held (with a safe margin), or how the run goes on without it. */
  ensure(job: J, token: string): Promise<'held' | Next>
  /** The write-ahead at the lease's holder before `r` is sent. */
  reserve(job: J, r: R): Promise<'held' | Next>
  /** The owner paused the job: the lease is let go. */
  release(job: J): Promise<void>
}

export interface MachinePorts<J extends MachineJob, R extends MachineRecipient> {
  store: JobStore<J, R>
  graph: SenderGraph
  now(): number
  random(): number
  sleep(ms: number): Promise<void>
  /** 1 in production; below 1 only in the sandbox. */
  pacingScale: number
  /** An uncertain send is reconciled only once it is this old, so an answer still on its way is seen. */
  settleMs: number
  hold?: HoldPort<J, R> | undefined
  /** Before each look at the job (the device delivers its queued results). */
  beforeRead?(): Promise<void>
  /** Checks of this side before the token (the job's kind on a device, the owner's binding on the server). */
  admit?(job: J): Promise<Next | 'open'>
  /** The page token, or undefined. */
  token(job: J): Promise<string | undefined>
  /** No token: how the run goes on. */
  noToken(job: J): Promise<Next>
  /** Whether the run yields to come back later (the server's slice budget and long waits), before a wait of `ms`. */
  yieldFor?(ms: number): MachineEnd | undefined
  /** A recipient this side sends otherwise (the server's marketing messages); the paced wait follows a delivered one. */
  sendOther?(job: J, r: R, token: string): Promise<Outcome & { paced?: boolean }>
  /** A result was recorded. */
  recorded?(job: J, r: R, outcome: Outcome): Promise<void>
  /** After a recorded send, whether the job must end (the server's campaign spend). */
  afterSend?(job: J, r: R, token: string): Promise<Next>
  /** A recipient refused by the failure policy was recorded. */
  rejected?(job: J, r: R, reason: string, kind: GraphErrorKind): void
  /** A failure this side handles before the policy (the device's storage, the server's token refusal). */
  failed?(job: J, r: R | undefined, err: unknown, token: string): Promise<Next | 'policy'>
  /** The connection failed: the device waits in place (woken when it comes back); absent: the wait is persisted. */
  offline?(job: J, ms: number): Promise<void>
  /** The page token was refused. */
  tokenRefused(job: J): Promise<Next>
  /** A recipient is not for this side to send. */
  mismatch(job: J): Promise<MachineEnd>
  /** Before the job ends (the server's last spend reading). */
  ending?(job: J): Promise<void>
  /** The job ended: finished or stopped (with the reason). */
  ended?(job: J, end: 'finished' | 'stopped', reason?: string): Promise<void>
  /** A step ended without a failure (`sent`: a send went through): the device's waits start over. */
  stepped?(sent: boolean): void
  /** The holder goes away: the run stops at its next step. */
  aborted?(): boolean
}

/** Why a job stopped: no messages left to send (the allowance spent, and no branded messages). */
export const NO_MESSAGES = 'no_messages'

/** Failures in a row of each class, reset by a send that goes through. */
type Streaks = Partial<Record<FailureAction, number>>

/** Runs the job under `epoch` until it ends, pauses, goes elsewhere, or the side's ports yield. */
export async function runMachine<J extends MachineJob, R extends MachineRecipient>(
  ports: MachinePorts<J, R>,
  epoch: number,
): Promise<MachineEnd> {
  const { store } = ports
  let streaks: Streaks = {}
  // The job as re-read by the last claim (its epoch and state checked in that transaction): the next look
  // needs no read of its own.
  let cached: J | undefined
  for (;;) {
    await ports.beforeRead?.()
    const job = cached ?? (await store.read())
    cached = undefined
    if (!job) return { end: 'gone' }
    if (job.lease !== epoch || ports.aborted?.()) return { end: 'lost' }
    if (job.phase === 'paused') {
      // Paused by the owner: the lease is let go, so no other side carries it on.
      await ports.hold?.release(job)
      return { end: 'paused' }
    }
    if (job.phase !== 'open') return { end: job.phase }
    const admitted = (await ports.admit?.(job)) ?? 'open'
    if (admitted !== 'open') return admitted
    const token = await ports.token(job)
    if (!token) {
      const next = await ports.noToken(job)
      if (next) return next
      continue
    }
    const held = ports.hold ? await ports.hold.ensure(job, token) : 'held'
    if (held !== 'held') {
      store.forget?.()
      if (held) return held
      continue
    }
    const wait = remainingWait(job.nextSendAt, ports.now())
    const yielded = ports.yieldFor?.(wait)
    if (yielded) return yielded
    if (wait > 0) {
      await ports.sleep(wait)
      continue
    }
    let current: R | undefined
    try {
      const step = await nextStep(ports, job, epoch, token, (r) => (current = r))
      if (step !== 'again' && 'end' in step) return step
      const sent = step !== 'again'
      // A send went through: the failures in a row start over.
      if (sent) streaks = {}
      ports.stepped?.(sent)
      if (sent) cached = step.sent
    } catch (err) {
      store.forget?.()
      const next = await failed(ports, job, epoch, current, err, token, streaks)
      if (next) return next
    }
  }
}

/** One step: reconcile, or claim, send and record. Answers what the loop does next. */
async function nextStep<J extends MachineJob, R extends MachineRecipient>(
  ports: MachinePorts<J, R>,
  job: J,
  epoch: number,
  token: string,
  sending: (r: R) => void,
): Promise<'again' | MachineEnd | { sent: J | undefined }> {
  const { store } = ports
  const uncertain = await store.uncertain(job)
  if (uncertain) {
    // A send still in flight (an earlier run, on a side taken as dead or slow) is left to land first.
    const r = uncertain.recipient
    const now = ports.now()
    const wait = Math.max((uncertain.busyUntil ?? 0) - now, ports.settleMs - (now - (r.attemptAt ?? 0)))
    return reconcileOne(ports, job, epoch, token, r, wait)
  }
  const claim = await store.claim(job, epoch)
  switch (claim.kind) {
    case 'again':
      return 'again'
    case 'done':
      return endJob(ports, job, 'finished')
    case 'stop':
      return endJob(ports, job, 'stopped', NO_MESSAGES)
    case 'mismatch':
      return ports.mismatch(job)
    case 'busy': {
      // The page's jobs meet at its slot: each comes back at a random moment of the next pacing wait, so
      // none is always first.
      // A send in flight is looked at again after the shortest pacing wait.
      const floor = pacingDelay(() => 0, ports.pacingScale)
      const until = (claim.until ?? ports.now() + floor) + ports.random() * floor
      // Whole milliseconds, at least one ahead, as a store keeps the wait: never a wait of none.
      await store.wait(job, epoch, Math.ceil(Math.max(until, ports.now() + 1)))
      return 'again'
    }
  }
  const current = claim.job ?? job
  const r = claim.recipient
  const reserved = ports.hold ? await ports.hold.reserve(current, r) : 'held'
  if (reserved !== 'held') {
    await store.backToPending(current, r, {})
    store.forget?.()
    return reserved ?? 'again'
  }
  sending(r)
  const outcome =
    r.way === 'marketing' && ports.sendOther
      ? await ports.sendOther(current, r, token)
      : { ok: true as const, messageId: await sendOne(ports, current, r, token) }
  // The send has left: whatever fails from here on (a write that lost a deadlock, a dropped database
  // connection) leaves the recipient as it is, attempted without a result, and it is reconciled against its
  // conversation before anything is sent to it again.
  return afterSend(async () => {
    const paced = !('paced' in outcome) || outcome.paced !== false
    const nextSendAt = ports.now() + (paced ? pacingDelay(ports.random, ports.pacingScale) : 0)
    const recorded = await store.record(current, r, outcome, epoch, nextSendAt)
    // The send went but nothing is left to pay for it: the job stops.
    if (recorded === 'refused') return endJob(ports, current, 'stopped', NO_MESSAGES)
    if (recorded !== 'recorded') return 'again' as const
    await ports.recorded?.(current, r, outcome)
    const after = await ports.afterSend?.(current, r, token)
    if (after) return after
    if (!outcome.ok) return 'again' as const
    current.nextSendAt = nextSendAt
    return { sent: claim.job && current }
  })
}

/** A failure once a send (or a part of it) had left: the recipient is uncertain, never sent again blind. */
export class AfterSendFailure extends Error {
  constructor(readonly failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure))
    this.name = 'AfterSendFailure'
  }
}

/** Runs what follows a send; a failure in it is an AfterSendFailure. */
async function afterSend<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    throw err instanceof AfterSendFailure ? err : new AfterSendFailure(err)
  }
}

/**
 * Reads the conversation: a page message with the text since the attempt means it went, and it is recorded.
 * Otherwise, once it may no longer be on its way (`wait` over), it goes back to pending.
 */
async function reconcileOne<J extends MachineJob, R extends MachineRecipient>(
  ports: MachinePorts<J, R>,
  job: J,
  epoch: number,
  token: string,
  r: R,
  wait: number,
): Promise<'again'> {
  const { store } = ports
  const at = r.attemptAt ?? 0
  const fallback = job.nameFallback ?? ''
  // A marketing message and an opt-in request appear in the conversation as any page message does.
  const personal = personalText(job.text, r.name, fallback)
  const content = jobContent(job.contentKind, job.optinTitle, job.utility)
  const text = arrivalText(recipientContent(content, r.name, fallback), personal)
  const found = await reconcile(ports.graph, job.pageId, token, r.conversationId, text, at)
  const textSent =
    found.textSent ||
    (!!r.branded &&
      job.contentKind !== 'optin_request' &&
      (await reconcile(ports.graph, job.pageId, token, r.conversationId, personal + BRANDED_FOOTER, at))
        .textSent)
  if (textSent) {
    const outcome = { ok: true as const, messageId: found.textSent ? found.textMessageId : undefined }
    if ((await store.record(job, r, outcome, epoch, undefined)) === 'recorded')
      await ports.recorded?.(job, r, outcome)
    return 'again'
  }
  if (wait > 0) await store.wait(job, epoch, ports.now() + wait)
  else await store.backToPending(job, r, { imageSent: !!r.imageSent || found.imageSent })
  return 'again'
}

/** Sends the recipient's content; answers the network's message id of an opt-in request or a utility message. */
async function sendOne<J extends MachineJob, R extends MachineRecipient>(
  ports: MachinePorts<J, R>,
  job: J,
  r: R,
  token: string,
): Promise<string | undefined> {
  const { graph, store } = ports
  // Every send of a job carries the broadcast metadata: the network echoes it, and no echo of it is an answer.
  const tagging = job.tag
    ? { messagingType: job.messagingType, tag: job.tag, metadata: BROADCAST_METADATA }
    : { messagingType: job.messagingType, metadata: BROADCAST_METADATA }
  const fallback = job.nameFallback ?? ''
  const personal = personalText(job.text, r.name, fallback)
  const text = r.branded ? personal + BRANDED_FOOTER : personal
  return sendContent(
    recipientContent(jobContent(job.contentKind, job.optinTitle, job.utility), r.name, fallback),
    { image: !!job.imageUrl, imageSent: !!r.imageSent },
    {
      utility: async (utility) =>
        (
          await graph.send(job.pageId, token, {
            recipientId: r.recipientId,
            messagingType: 'UTILITY',
            metadata: BROADCAST_METADATA,
            utility,
          })
        ).message_id,
      optInRequest: async (title) =>
        (
          await graph.send(job.pageId, token, {
            recipientId: r.recipientId,
            messagingType: 'RESPONSE',
            metadata: BROADCAST_METADATA,
            optIn: { title, payload: optInPayload(job.id) },
          })
        ).message_id,
      image: async () => {
        let attachmentId = await store.attachment(job)
        if (!attachmentId) {
          attachmentId = (await graph.uploadAttachment(job.pageId, token, job.imageUrl!)).attachment_id
          await store.setAttachment(job, attachmentId)
        }
        await graph.send(job.pageId, token, {
          recipientId: r.recipientId,
          ...tagging,
          attachment: { attachmentId },
        })
      },
      // The image went: failing to note it leaves the recipient uncertain (its conversation shows the image).
      imageWent: () => afterSend(() => store.imageWent(job, r)),
      text: async () => {
        await graph.send(job.pageId, token, { recipientId: r.recipientId, ...tagging, text })
      },
    },
  )
}

/** The job ends: finished, or stopped with its reason (a side's own stop goes through here too). */
export async function endJob<J extends MachineJob, R extends MachineRecipient>(
  ports: MachinePorts<J, R>,
  job: J,
  how: 'finished' | 'stopped',
  reason?: string,
): Promise<MachineEnd> {
  await ports.ending?.(job)
  if (how === 'finished') await ports.store.finish(job)
  else await ports.store.stop(job, reason!, reason === NO_MESSAGES)
  await ports.ended?.(job, how, reason)
  return { end: how }
}

/** A failed step, by the failure's class: the one policy's plan, written to this side's store. */
async function failed<J extends MachineJob, R extends MachineRecipient>(
  ports: MachinePorts<J, R>,
  job: J,
  epoch: number,
  r: R | undefined,
  err: unknown,
  token: string,
  streaks: Streaks,
): Promise<Next> {
  const { store } = ports
  if (r) await store.sendFailed?.(job, epoch)
  const landed = err instanceof AfterSendFailure
  const own = (await ports.failed?.(job, r, landed ? err.failure : err, token)) ?? 'policy'
  if (own !== 'policy') return own
  if (landed) {
    // The recipient keeps its attempt (reconciled at the next step); the job looks again after a backoff.
    const streak = (streaks.uncertain = (streaks.uncertain ?? 0) + 1)
    const ms = backoff(streak, RETRY_BASE_MS, RETRY_MAX_MS, ports.random, ports.pacingScale)
    await store.wait(job, epoch, ports.now() + ms)
    return undefined
  }
  const fresh = r ? await store.inFlight(job, r) : { sending: false, failures: 0 }
  const plan = planFailure(err, {
    sending: fresh.sending,
    failures: fresh.failures,
    streak: (action) => (streaks[action] = (streaks[action] ?? 0) + 1),
    random: ports.random,
    pacingScale: ports.pacingScale,
  })
  if (r && fresh.sending && plan.recipient === 'pending')
    await store.backToPending(job, r, plan.failures ? { failures: plan.failures } : {})
  const at = ports.now() + (plan.waitMs ?? 0)
  switch (plan.action) {
    case 'uncertain':
      // No answer: the recipient stays attempted (reconciled before any retry); the job waits for the network.
      if (ports.offline) await ports.offline(job, plan.waitMs!)
      else await store.wait(job, epoch, at, 'waiting_connection')
      return undefined
    case 'throttle':
      await store.wait(job, epoch, at, 'rate_limited')
      return undefined
    case 'needs_token':
      return ports.tokenRefused(job)
    case 'stop':
      return endJob(ports, job, 'stopped', plan.reason)
    case 'reject':
      if (r) {
        const outcome = { ok: false as const, error: plan.reason! }
        if ((await store.record(job, r, outcome, epoch, at)) === 'recorded') {
          await ports.recorded?.(job, r, outcome)
          ports.rejected?.(job, r, plan.reason!, plan.kind)
        }
        return undefined
      }
      await store.wait(job, epoch, at)
      return undefined
    case 'none':
    case 'wait':
    case 'retry':
      await store.wait(job, epoch, at)
      return undefined
  }
}

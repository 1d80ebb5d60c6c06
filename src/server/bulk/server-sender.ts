/**
 * The server's sender: one run ("slice") of a job the device handed over, with the browser sender's rules
 * (shared/bulk/core): the write-ahead before every send (here `attempt_at`, with the lease checked in the same
 * transaction), the image once as a reusable attachment then the text, the result through the one idempotent
 * touch, the random 800–1500 ms pacing (scaled only in sandbox builds), reconciling an uncertain send before
 * any retry, and the failure classes: throttling backs off, an expired token pauses the job and tells the
 * owner, a blocked page or configuration error stops it, recipient errors reject that recipient.
 * A slice runs for a bounded time and answers when the job should be looked at again, so the queue engine
 * can give the next slice to any instance (and a dead instance's job to another).
 */
import { BROADCAST_METADATA } from '../../shared/contracts/conversation-states.ts'
import { BRANDED_FOOTER, sendMode } from '../../shared/bulk/allowance.ts'
import { NOT_SUBSCRIBED, planFailure } from '../../shared/bulk/core/failure-policy.ts'
import { pacingDelay } from '../../shared/bulk/core/pacer.ts'
import { kindReaches } from '../../shared/bulk/core/kinds.ts'
import { reconcile } from '../../shared/bulk/core/reconcile.ts'
import type { SenderGraph } from '../../shared/bulk/ports.ts'
import { SEND_DELAY_MAX_MS } from '../../shared/constants/limits.ts'
import {
  arrivalText,
  jobContent,
  personalText,
  recipientContent,
  optInPayload,
  sendContent,
} from '../../shared/graph/delivery.ts'
import type { Store } from '../db/store.ts'
import { isPageTokenRefusal } from '../graph/graph-api.ts'
import { bindingRevoked, PAGE_ACCESS_REVOKED } from '../repo/page-bindings.ts'
import { loadSubscription, toState } from '../repo/subscriptions.ts'
import { AllowanceRefused, touch } from '../repo/touch.ts'
import { BUSY_MS, dropToken, openToken, readJob, type ServerJob } from './jobs.ts'
import {
  budgetSpent,
  campaignInactive,
  type MarketingSenderDeps,
  SPEND_READ_EVERY_MS,
  storeSpend,
} from './marketing.ts'
import type { TokenBox } from './token-box.ts'
import { progressed, progressMarks, publishProgress } from './progress.ts'

/** What the owner is told about (through Web Push when it is wired; see OwnerNotifier). */
export type OwnerEvent =
  | { kind: 'finished'; messageId: string; sent: number }
  | { kind: 'stopped'; messageId: string; reason: string }
  | { kind: 'needs_token'; messageId: string; pageId: string }

/** The port through which the owner hears of a job that ended or needs them. */
export type OwnerNotifier = (userId: string, event: OwnerEvent) => Promise<void>

export interface ServerSenderDeps {
  store: Store
  graph: SenderGraph
  box: TokenBox
  notify: OwnerNotifier
  now(): number
  random(): number
  sleep(ms: number): Promise<void>
  /** 1 in production; below 1 only with the sandbox on (PACING_SCALE). */
  pacingScale: number
  /** An uncertain send is reconciled only once it is this old, so an answer still on its way is seen. */
  settleMs: number
  /** Marketing messages (the campaign calls and subscriber tokens); without it a marketing recipient stops the job. */
  marketing?: MarketingSenderDeps | undefined
  /**
   * Checks the owner's binding to the page with the network when the job's page token is refused (see
   * routes/page-access.ts); answers 'revoked' when the owner no longer manages the page. Absent: not checked.
   */
  recheckBinding?: ((userId: string, pageId: string, token: string) => Promise<string>) | undefined
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void }
}

export type SliceOutcome =
  /** Look again at this time (epoch ms). */
  | { kind: 'continue'; at: number }
  /** Nothing more for the server: finished, stopped, taken back, waiting for the owner. */
  | { kind: 'done'; why: 'finished' | 'stopped' | 'lost' | 'needs_token' | 'gone' }

/** The time a slice may run before it hands the job back to the queue. */
export const SLICE_MS = 15_000

export async function runSlice(
  deps: ServerSenderDeps,
  messageId: string,
  budgetMs = SLICE_MS,
): Promise<SliceOutcome> {
  const outcome = await sendSlice(deps, messageId, budgetMs)
  const mark = progressMarks.get(messageId)
  // The results of the slice's last seconds are published before the job waits for its next slice.
  if (outcome.kind === 'continue' && mark?.dirty) await publishProgress(deps, messageId)
  if (outcome.kind === 'done') progressMarks.delete(messageId)
  return outcome
}

async function sendSlice(deps: ServerSenderDeps, messageId: string, budgetMs: number): Promise<SliceOutcome> {
  const { store } = deps
  // A new run takes the lease: any older run of this job (a slow instance whose slice expired) stops.
  const taken = (
    await store.query<{ lease: number }>(
      `UPDATE messages SET lease = lease + 1, server_state = 'running'
        WHERE id = $1 AND sender = 'server' AND state = 'open' AND deleted_at IS NULL RETURNING lease`,
      [messageId],
    )
  )[0]
  if (!taken) return { kind: 'done', why: 'lost' }
  const lease = taken.lease
  const started = deps.now()
  let streak = 0
  for (;;) {
    const job = await readJob(store, messageId)
    if (!job) return { kind: 'done', why: 'gone' }
    if (job.lease !== lease || job.sender !== 'server' || job.state !== 'open')
      return { kind: 'done', why: 'lost' }
    // The owner no longer manages the page: nothing more is sent for them, and the rest is counted as skipped.
    if (await bindingRevoked(store, job.user_id, job.page_id)) return stop(deps, job, PAGE_ACCESS_REVOKED)
    const token = await openToken(store, deps.box, messageId)
    if (!token) return needsToken(deps, job)
    const wait = job.next_send_at ? new Date(job.next_send_at).getTime() - deps.now() : 0
    if (wait > 0) {
      // The pacing wait is slept here; longer waits (backoffs) free the worker for other jobs meanwhile.
      const long = wait > SEND_DELAY_MAX_MS * deps.pacingScale + 100
      if (long || deps.now() + wait - started > budgetMs) return { kind: 'continue', at: deps.now() + wait }
      await deps.sleep(wait)
      continue
    }
    if (deps.now() - started > budgetMs) return { kind: 'continue', at: deps.now() }
    let current: Claimed | undefined
    try {
      const uncertain = await firstUncertain(store, messageId)
      if (uncertain) {
        // A send still in flight (an earlier run of this job, on an instance taken as dead or slow) is left to
        // land first: its run marked the job busy until its Graph call must have ended.
        const busy = job.busy_until ? new Date(job.busy_until).getTime() - deps.now() : 0
        const age = deps.now() - new Date(uncertain.attempt_at).getTime()
        const wait = Math.max(busy, deps.settleMs - age)
        // Found in the conversation, it is recorded at once; only its absence waits for the send to land.
        if (await settleUncertain(deps, lease, job, token, uncertain, wait > 0)) continue
        await setNext(store, messageId, lease, deps.now() + wait, null)
        continue
      }
      const claim = await claimNext(deps, job, lease)
      if (claim.kind === 'stale') continue
      if (claim.kind === 'done') return finish(deps, job)
      if (claim.kind === 'stop') return stopForAllowance(deps, job)
      if (claim.kind === 'mismatch') return stop(deps, job, KIND_MISMATCH)
      current = claim.recipient
      if (current.way === 'marketing') {
        const subscriptionToken = await subscriberToken(deps, job, current)
        if (subscriptionToken === null) {
          // No longer subscribed (opted out since the audience was chosen): nothing is sent or spent.
          await record(deps, lease, job, current, { ok: false, error: NOT_SUBSCRIBED })
          await setNext(store, messageId, lease, deps.now(), 'running')
          continue
        }
        await sendMarketing(deps, job, current, token, subscriptionToken)
        await record(deps, lease, job, current, { ok: true })
        const spent = await readSpend(deps, job, token, false)
        if (spent) {
          await clearBusy(store, messageId, lease)
          return stop(deps, job, `marketing:${spent}`)
        }
      } else {
        const sentId = await sendOne(deps, job, current, token)
        // Refused (nothing left to pay for it, or no branded message left): the rest are not sent.
        if (!(await record(deps, lease, job, current, { ok: true, messageId: sentId })))
          return stopForAllowance(deps, job)
      }
      await setNext(
        store,
        messageId,
        lease,
        deps.now() + pacingDelay(deps.random, deps.pacingScale),
        'running',
      )
      streak = 0
    } catch (err) {
      const outcome = await handleFailure(deps, job, lease, current, err, ++streak, token)
      if (outcome) return outcome
    }
  }
}

interface Claimed {
  recipient_id: string
  way: 'standard' | 'marketing'
  name: string
  conversation_id: string
  order: number
  attempts: number
  /** How many of its sends answered a transient error (only these count towards rejecting it). */
  failures: number
  image_sent: boolean
  branded: boolean
}

type Claim =
  | { kind: 'stale' }
  | { kind: 'done' }
  | { kind: 'stop' }
  /** The next recipient is not of the job's kind (a marketing one in a job not created as marketing). */
  | { kind: 'mismatch' }
  | { kind: 'recipient'; recipient: Claimed }

async function firstUncertain(store: Store, id: string) {
  return (
    await store.query<{
      recipient_id: string
      name: string
      conversation_id: string | null
      attempt_at: Date
      image_sent: boolean
      attempt_branded: boolean
      attempts: number
      way: 'standard' | 'marketing'
    }>(
      `SELECT recipient_id, name, conversation_id, attempt_at, image_sent, attempt_branded, attempts, way
         FROM message_recipients WHERE message_id = $1 AND status IS NULL AND attempt_at IS NOT NULL
         ORDER BY seq LIMIT 1`,
      [id],
    )
  )[0]
}

/**
 * Reads the conversation: a page message with the text since the attempt means it went. Otherwise, once it
 * may no longer be on its way (`early` false), it goes back to pending. Answers whether it is settled.
 */
async function settleUncertain(
  deps: ServerSenderDeps,
  lease: number,
  job: ServerJob,
  token: string,
  u: NonNullable<Awaited<ReturnType<typeof firstUncertain>>>,
  early: boolean,
): Promise<boolean> {
  const at = new Date(u.attempt_at).getTime()
  const conversation = u.conversation_id ?? ''
  // A marketing message and an opt-in request appear in the conversation as any page message does.
  const personal = personalText(job.message, u.name, job.name_fallback ?? '')
  const content = jobContent(job.content_kind, job.optin_title, job.utility)
  const text = arrivalText(recipientContent(content, u.name, job.name_fallback ?? ''), personal)
  const found = await reconcile(deps.graph, job.page_id, token, conversation, text, at)
  let textSent = found.textSent
  if (!textSent && u.attempt_branded && job.content_kind !== 'optin_request')
    textSent = (await reconcile(deps.graph, job.page_id, token, conversation, personal + BRANDED_FOOTER, at))
      .textSent
  if (textSent) {
    await record(
      deps,
      lease,
      job,
      { recipient_id: u.recipient_id, name: u.name, branded: u.attempt_branded },
      { ok: true, messageId: found.textMessageId },
    )
    return true
  }
  if (early) return false
  await deps.store.query(
    `UPDATE message_recipients SET attempt_at = NULL, image_sent = image_sent OR $3
      WHERE message_id = $1 AND recipient_id = $2 AND status IS NULL`,
    [job.id, u.recipient_id, found.imageSent],
  )
  return true
}

/**
 * The next recipient (the lowest without a result or an attempt), its write-ahead and the in-flight mark, in
 * one transaction that re-reads the job's lease under its row lock: a run whose lease moved on (the device
 * took the job back, another instance's run began) writes nothing.
 */
async function claimNext(deps: ServerSenderDeps, job: ServerJob, lease: number): Promise<Claim> {
  const subscription = toState(await loadSubscription(deps.store, job.user_id))
  return deps.store.transaction(async (tx): Promise<Claim> => {
    const fresh = (
      await tx.query<{ lease: number; sender: string; state: string }>(
        'SELECT lease, sender, state FROM messages WHERE id = $1 FOR UPDATE',
        [job.id],
      )
    )[0]
    if (!fresh || fresh.lease !== lease || fresh.sender !== 'server' || fresh.state !== 'open')
      return { kind: 'stale' }
    const next = (
      await tx.query<Omit<Claimed, 'branded'> & { conversation_id: string | null }>(
        `SELECT r.recipient_id, r.name, r.conversation_id, r.attempts, r.failures, r.image_sent, r.way,
            (SELECT count(*)::int FROM message_recipients o WHERE o.message_id = r.message_id AND o.seq < r.seq) AS "order"
           FROM message_recipients r WHERE r.message_id = $1 AND r.status IS NULL AND r.attempt_at IS NULL
           ORDER BY r.seq LIMIT 1`,
        [job.id],
      )
    )[0]
    if (!next) {
      const open = (
        await tx.query('SELECT 1 FROM message_recipients WHERE message_id = $1 AND status IS NULL LIMIT 1', [
          job.id,
        ])
      ).length
      return open ? { kind: 'stale' } : { kind: 'done' }
    }
    // Nothing is written for it: a marketing message goes only to a job created as a marketing job.
    if (!kindReaches(job.kind, next.way)) return { kind: 'mismatch' }
    const mode = sendMode(next.order, job.branded_from, subscription, job.branded_messages_amount > 0)
    if (mode === 'stop') return { kind: 'stop' }
    const branded = mode === 'branded'
    await tx.query(
      `UPDATE message_recipients SET attempt_at = now(), attempts = attempts + 1, attempt_branded = $3
        WHERE message_id = $1 AND recipient_id = $2`,
      [job.id, next.recipient_id, branded],
    )
    await tx.query(`UPDATE messages SET busy_until = now() + make_interval(secs => $2) WHERE id = $1`, [
      job.id,
      BUSY_MS / 1000,
    ])
    return {
      kind: 'recipient',
      recipient: {
        ...next,
        conversation_id: next.conversation_id ?? '',
        attempts: next.attempts + 1,
        branded,
      },
    }
  })
}

/** Sends the recipient's content; answers the network's message id of an opt-in request. */
async function sendOne(
  deps: ServerSenderDeps,
  job: ServerJob,
  r: Claimed,
  token: string,
): Promise<string | undefined> {
  // Every send of a job carries the broadcast metadata: the network echoes it, and no echo of it is an answer.
  const tagging = job.tag
    ? { messagingType: job.messaging_type, tag: job.tag, metadata: BROADCAST_METADATA }
    : { messagingType: job.messaging_type, metadata: BROADCAST_METADATA }
  const personal = personalText(job.message, r.name, job.name_fallback ?? '')
  const text = r.branded ? personal + BRANDED_FOOTER : personal
  return sendContent(
    recipientContent(
      jobContent(job.content_kind, job.optin_title, job.utility),
      r.name,
      job.name_fallback ?? '',
    ),
    { image: !!job.image_url, imageSent: r.image_sent },
    {
      utility: async (utility) =>
        (
          await deps.graph.send(job.page_id, token, {
            recipientId: r.recipient_id,
            messagingType: 'UTILITY',
            metadata: BROADCAST_METADATA,
            utility,
          })
        ).message_id,
      optInRequest: async (title) => {
        const sent = await deps.graph.send(job.page_id, token, {
          recipientId: r.recipient_id,
          messagingType: 'RESPONSE',
          metadata: BROADCAST_METADATA,
          optIn: { title, payload: optInPayload(job.id) },
        })
        return sent.message_id
      },
      image: async () => {
        let attachmentId = (await readJob(deps.store, job.id))?.attachment_id
        if (!attachmentId) {
          attachmentId = (await deps.graph.uploadAttachment(job.page_id, token, job.image_url!)).attachment_id
          await deps.store.query('UPDATE messages SET attachment_id = $2 WHERE id = $1', [
            job.id,
            attachmentId,
          ])
        }
        await deps.graph.send(job.page_id, token, {
          recipientId: r.recipient_id,
          ...tagging,
          attachment: { attachmentId },
        })
      },
      imageWent: async () => {
        await deps.store.query(
          'UPDATE message_recipients SET image_sent = true WHERE message_id = $1 AND recipient_id = $2',
          [job.id, r.recipient_id],
        )
      },
      text: async () => {
        await deps.graph.send(job.page_id, token, { recipientId: r.recipient_id, ...tagging, text })
      },
    },
  )
}

/** The subscriber's token, read at the moment of the send; a job without a campaign cannot send marketing. */
async function subscriberToken(deps: ServerSenderDeps, job: ServerJob, r: Claimed): Promise<string | null> {
  if (!deps.marketing || !job.campaign_id || !job.ad_account_id || !job.marketing_message_id)
    throw new MarketingUnavailable()
  return deps.marketing.subscriberToken(job.page_id, r.recipient_id)
}

/** Why the server stopped a job whose recipient is not of the job's kind (a marketing one in another job). */
export const KIND_MISMATCH = 'kind_mismatch'

/** A marketing recipient in a job without a campaign (or a server without marketing): the job stops. */
class MarketingUnavailable extends Error {
  readonly marketing = 'campaign_setup'
  constructor() {
    super('The job has no campaign for its marketing recipients.')
    this.name = 'MarketingUnavailable'
  }
}

/** One marketing message of the job's campaign to one subscriber (text and image in one message). */
async function sendMarketing(
  deps: ServerSenderDeps,
  job: ServerJob,
  r: Claimed,
  token: string,
  subscriptionToken: string,
) {
  const personal = personalText(job.message, r.name, job.name_fallback ?? '')
  await deps.marketing!.graph.sendMarketingMessage(job.ad_account_id!, token, {
    messageId: job.marketing_message_id!,
    subscriptionToken,
    text: r.branded ? personal + BRANDED_FOOTER : personal,
    ...(job.image_url ? { imageUrl: job.image_url } : {}),
  })
}

/**
 * Reads the campaign's spend from the network (at most every SPEND_READ_EVERY_MS unless `force`) and stores
 * it; answers the marketing error name that must stop the job: the total budget is spent, or the campaign
 * was paused. A failed reading only costs the reading.
 */
async function readSpend(
  deps: ServerSenderDeps,
  job: ServerJob,
  token: string,
  force: boolean,
): Promise<string | undefined> {
  if (!deps.marketing || !job.campaign_id) return undefined
  const fresh = (await readJob(deps.store, job.id)) ?? job
  const last = fresh.spend_read_at ? new Date(fresh.spend_read_at).getTime() : 0
  if (!force && deps.now() - last < SPEND_READ_EVERY_MS) return undefined
  try {
    const campaign = await deps.marketing.graph.campaign(job.campaign_id, token, job.currency ?? undefined)
    await storeSpend(deps.store, job.id, campaign.spendMinor, deps.now())
    if (budgetSpent(fresh, campaign.spendMinor)) return 'budget_spent'
    if (campaignInactive(campaign.status)) return 'inactive_campaign'
  } catch (err) {
    deps.log?.warn({ err: String(err), messageId: job.id }, 'the campaign spend could not be read')
  }
  return undefined
}

/** The spend once more when the job ends, so the card shows what the campaign cost. */
async function finalSpend(deps: ServerSenderDeps, job: ServerJob) {
  if (!deps.marketing || !job.campaign_id) return
  const token = await openToken(deps.store, deps.box, job.id).catch(() => undefined)
  if (token) await readSpend(deps, job, token, true)
}

/** A recipient's result: delivered (with the network's message id when known), or refused and why. */
type Outcome = { ok: true; messageId?: string | undefined } | { ok: false; error: string }

/**
 * The result through the one touch (idempotent per recipient), then the in-flight mark is cleared. Answers
 * false when the touch was refused for the allowance.
 */
async function record(
  deps: ServerSenderDeps,
  lease: number,
  job: ServerJob,
  r: Pick<Claimed, 'recipient_id' | 'name' | 'branded'>,
  outcome: Outcome,
): Promise<boolean> {
  let recorded = true
  try {
    await touch(deps.store, job.user_id, job.id, {
      status: outcome.ok ? 'OK' : 'NG',
      recipient_id: r.recipient_id,
      sent_as_branded: outcome.ok && r.branded,
      error_data: outcome.ok
        ? null
        : { error_message: outcome.error, recipent_id: r.recipient_id, recipent_name: r.name },
      message_id: outcome.ok ? outcome.messageId : undefined,
    })
  } catch (err) {
    // The message went but nothing is left to pay for it (406): the job stops.
    if (!(err instanceof AllowanceRefused)) throw err
    recorded = false
    await deps.store.query(
      `UPDATE message_recipients SET status = 'OK', touched_at = now() WHERE message_id = $1 AND recipient_id = $2 AND status IS NULL`,
      [job.id, r.recipient_id],
    )
  }
  // Only this run's own mark: a newer run's send may be in flight. A device that took the job back meanwhile
  // sets no mark of its own, and its take-back waits for this one to go.
  await clearBusy(deps.store, job.id, lease)
  await progressed(deps, job.id)
  return recorded
}

async function clearBusy(store: Store, id: string, lease: number) {
  await store.query(
    `UPDATE messages SET busy_until = NULL WHERE id = $1 AND (lease = $2 OR sender = 'device')`,
    [id, lease],
  )
}

/** The next look at the job; the in-flight mark is left alone (only a recorded or failed send clears it). */
async function setNext(store: Store, id: string, lease: number, at: number, state: string | null) {
  await store.query(
    `UPDATE messages SET next_send_at = to_timestamp($3::double precision / 1000),
        server_state = COALESCE($4, server_state)
      WHERE id = $1 AND lease = $2`,
    [id, lease, at, state],
  )
}

async function finish(deps: ServerSenderDeps, job: ServerJob): Promise<SliceOutcome> {
  await finalSpend(deps, job)
  const row = (
    await deps.store.query<{ ok_count: number }>(
      `UPDATE messages SET state = 'finished', server_state = NULL, busy_until = NULL WHERE id = $1 RETURNING ok_count`,
      [job.id],
    )
  )[0]
  await dropToken(deps.store, job.id)
  await publishProgress(deps, job.id)
  await tellOwner(deps, job.user_id, { kind: 'finished', messageId: job.id, sent: row?.ok_count ?? 0 })
  return { kind: 'done', why: 'finished' }
}

/** No allowance left and no branded messages: the rest are skipped, visibly, and the job stops. */
async function stopForAllowance(deps: ServerSenderDeps, job: ServerJob): Promise<SliceOutcome> {
  return stop(deps, job, 'no_messages')
}

async function stop(deps: ServerSenderDeps, job: ServerJob, reason: string): Promise<SliceOutcome> {
  await finalSpend(deps, job)
  await deps.store.query(
    `UPDATE messages SET state = 'stopped', stop_reason = $2, server_state = NULL, busy_until = NULL,
        skipped_count = (SELECT count(*)::int FROM message_recipients WHERE message_id = $1 AND status IS NULL)
      WHERE id = $1`,
    [job.id, reason],
  )
  await dropToken(deps.store, job.id)
  await publishProgress(deps, job.id)
  await tellOwner(deps, job.user_id, { kind: 'stopped', messageId: job.id, reason })
  return { kind: 'done', why: 'stopped' }
}

/** The token is missing or expired: the job waits (still the server's) until the owner opens the app. */
async function needsToken(deps: ServerSenderDeps, job: ServerJob): Promise<SliceOutcome> {
  await deps.store.query(
    `UPDATE messages SET server_state = 'needs_signin', busy_until = NULL WHERE id = $1`,
    [job.id],
  )
  await dropToken(deps.store, job.id)
  await publishProgress(deps, job.id)
  await tellOwner(deps, job.user_id, { kind: 'needs_token', messageId: job.id, pageId: job.page_id })
  return { kind: 'done', why: 'needs_token' }
}

async function tellOwner(deps: ServerSenderDeps, userId: string, event: OwnerEvent) {
  try {
    await deps.notify(userId, event)
  } catch (err) {
    deps.log?.warn({ err: String(err), messageId: event.messageId }, 'the owner could not be told')
  }
}

async function backToPending(store: Store, id: string, recipientId: string) {
  await store.query(
    'UPDATE message_recipients SET attempt_at = NULL WHERE message_id = $1 AND recipient_id = $2 AND status IS NULL',
    [id, recipientId],
  )
}

async function handleFailure(
  deps: ServerSenderDeps,
  job: ServerJob,
  lease: number,
  r: Claimed | undefined,
  err: unknown,
  streak: number,
  token: string,
): Promise<SliceOutcome | undefined> {
  // This run's send failed, so none of its own is in flight any more.
  if (r) await clearBusy(deps.store, job.id, lease)
  // The page token refused for its session or permissions: the owner may have lost the page. The network is
  // asked about the binding; a revoked one stops the job with that reason (the recipient is sent later by nobody).
  if (isPageTokenRefusal(err) && deps.recheckBinding) {
    const verdict = await deps.recheckBinding(job.user_id, job.page_id, token).catch(() => 'unknown')
    if (verdict === 'revoked') {
      if (r) await backToPending(deps.store, job.id, r.recipient_id)
      return stop(deps, job, PAGE_ACCESS_REVOKED)
    }
  }
  // The one policy both senders share; this writes it to the server's store.
  const plan = planFailure(err, {
    sending: !!r,
    failures: r?.failures ?? 0,
    streak: () => streak,
    random: deps.random,
    pacingScale: deps.pacingScale,
  })
  if (r && plan.recipient === 'pending') {
    await backToPending(deps.store, job.id, r.recipient_id)
    if (plan.failures)
      await deps.store.query(
        'UPDATE message_recipients SET failures = $3 WHERE message_id = $1 AND recipient_id = $2',
        [job.id, r.recipient_id, plan.failures],
      )
  }
  switch (plan.action) {
    case 'needs_token':
      return needsToken(deps, job)
    case 'stop':
      return stop(deps, job, plan.reason!)
    case 'reject':
      if (r) await record(deps, lease, job, r, { ok: false, error: plan.reason! })
      break
  }
  // No answer: the recipient stays attempted (reconciled before any retry); the job waits for the network.
  await setNext(deps.store, job.id, lease, deps.now() + (plan.waitMs ?? 0), plan.state ?? null)
  return undefined
}

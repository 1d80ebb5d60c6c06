/**
 * The server's sender: one run ("slice") of a job the device handed over, run by the one sender both sides
 * share (core/bulk/machine.ts) against the job's SQL rows (repo/bulk-job-store.ts). What is the
 * server's own stays here: the slice's time budget (a long wait hands the job back to the queue), the
 * marketing messages and the campaign's spend, the owner's binding re-checked when the page token is refused,
 * the progress on the owner's event stream and the owner's notifications.
 * A slice runs for a bounded time and answers when the job should be looked at again, so the queue engine
 * can give the next slice to any instance (and a dead instance's job to another).
 */
import { BRANDED_FOOTER } from '../../core/bulk/allowance.ts'
import { NOT_SUBSCRIBED } from '../../core/bulk/failure-policy.ts'
import { endJob, runMachine, type MachineEnd, type MachinePorts } from '../../core/bulk/machine.ts'
import type { SenderGraph } from '../../core/bulk/ports.ts'
import { SEND_DELAY_MAX_MS } from '../../core/constants/limits.ts'
import { personalText } from '../../core/graph/delivery.ts'
import type { Store } from '../db/store.ts'
import { isPageTokenRefusal } from '../graph/graph-api.ts'
import {
  bulkJobStore,
  sentCount,
  takeLease,
  waitForOwner,
  type SqlJob,
  type SqlRecipient,
} from '../repo/bulk-job-store.ts'
import { PAGE_ACCESS_REVOKED } from '../repo/page-bindings.ts'
import { dropToken, openToken, readJob, type ServerJob } from './jobs.ts'
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
  const marks = progressMarks(deps.store)
  const mark = marks.get(messageId)
  // The results of the slice's last seconds are published before the job waits for its next slice.
  if (outcome.kind === 'continue' && mark?.dirty) await publishProgress(deps, messageId)
  if (outcome.kind === 'done') marks.delete(messageId)
  return outcome
}

async function sendSlice(deps: ServerSenderDeps, messageId: string, budgetMs: number): Promise<SliceOutcome> {
  const { store } = deps
  const lease = await takeLease(store, messageId)
  if (lease === undefined) return { kind: 'done', why: 'lost' }
  const started = deps.now()
  const jobs = bulkJobStore(store, messageId, deps.now)
  // The page token is opened once per slice: it changes only with a hand-over, which starts another slice.
  let token: string | undefined
  const ports: MachinePorts<SqlJob, SqlRecipient> = {
    store: jobs,
    graph: deps.graph,
    now: deps.now,
    random: deps.random,
    sleep: deps.sleep,
    pacingScale: deps.pacingScale,
    settleMs: deps.settleMs,
    // The owner no longer manages the page: nothing more is sent for them, and the rest is counted as skipped.
    // The binding is read with the job's row (at each claim).
    admit: async (job) => (job.revoked ? endJob(ports, job, 'stopped', PAGE_ACCESS_REVOKED) : 'open'),
    token: async () => (token ??= await openToken(store, deps.box, messageId)),
    noToken: (job) => needsToken(deps, job.row),
    tokenRefused: (job) => needsToken(deps, job.row),
    // The pacing wait is slept here; longer waits (backoffs) free the worker for other jobs meanwhile.
    yieldFor: (wait) => {
      const now = deps.now()
      const long = wait > SEND_DELAY_MAX_MS * deps.pacingScale + 100
      if (wait > 0 && (long || now + wait - started > budgetMs)) return { end: 'continue', at: now + wait }
      if (wait <= 0 && now - started > budgetMs) return { end: 'continue', at: now }
      return undefined
    },
    sendOther: async (job, r, token) => {
      const subscriptionToken = await subscriberToken(deps, job.row, r)
      // No longer subscribed (opted out since the audience was chosen): nothing is sent or spent.
      if (subscriptionToken === null) return { ok: false, error: NOT_SUBSCRIBED, paced: false }
      await sendMarketing(deps, job.row, r, token, subscriptionToken)
      return { ok: true }
    },
    recorded: async () => progressed(deps, messageId),
    afterSend: async (job, r, token) => {
      if (r.way !== 'marketing') return undefined
      const spent = await readSpend(deps, job.row, token, false)
      return spent ? endJob(ports, job, 'stopped', `marketing:${spent}`) : undefined
    },
    // The page token refused for its session or permissions: the owner may have lost the page. The network is
    // asked about the binding; a revoked one stops the job with that reason (the recipient is sent later by nobody).
    failed: async (job, r, err, token) => {
      if (!isPageTokenRefusal(err) || !deps.recheckBinding) return 'policy'
      const verdict = await deps.recheckBinding(job.row.user_id, job.pageId, token).catch(() => 'unknown')
      if (verdict !== 'revoked') return 'policy'
      if (r) await jobs.backToPending(job, r, {})
      return endJob(ports, job, 'stopped', PAGE_ACCESS_REVOKED)
    },
    mismatch: (job) => endJob(ports, job, 'stopped', KIND_MISMATCH),
    ending: (job) => finalSpend(deps, job.row),
    ended: async (job, how, reason) => {
      await dropToken(store, messageId)
      await publishProgress(deps, messageId)
      await tellOwner(
        deps,
        job.row.user_id,
        how === 'finished'
          ? { kind: 'finished', messageId, sent: await sentCount(store, messageId) }
          : { kind: 'stopped', messageId, reason: reason! },
      )
    },
  }
  const end = await runMachine(ports, lease)
  if (end.end === 'continue') return { kind: 'continue', at: end.at }
  const why = end.end === 'paused' || end.end === 'away' ? 'lost' : end.end
  return { kind: 'done', why }
}

/** The subscriber's token, read at the moment of the send; a job without a campaign cannot send marketing. */
async function subscriberToken(
  deps: ServerSenderDeps,
  job: ServerJob,
  r: SqlRecipient,
): Promise<string | null> {
  if (!deps.marketing || !job.campaign_id || !job.ad_account_id || !job.marketing_message_id)
    throw new MarketingUnavailable()
  return deps.marketing.subscriberToken(job.page_id, r.recipientId)
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
  r: SqlRecipient,
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

/** The token is missing or expired: the job waits (still the server's) until the owner opens the app. */
async function needsToken(deps: ServerSenderDeps, job: ServerJob): Promise<MachineEnd> {
  await waitForOwner(deps.store, job.id)
  await dropToken(deps.store, job.id)
  await publishProgress(deps, job.id)
  await tellOwner(deps, job.user_id, { kind: 'needs_token', messageId: job.id, pageId: job.page_id })
  return { end: 'needs_token' }
}

async function tellOwner(deps: ServerSenderDeps, userId: string, event: OwnerEvent) {
  try {
    await deps.notify(userId, event)
  } catch (err) {
    deps.log?.warn({ err: String(err), messageId: event.messageId }, 'the owner could not be told')
  }
}

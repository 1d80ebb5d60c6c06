/**
 * A bulk job as the server sender keeps it: the `messages` row (who sends it, its lease, the pacing wait) and
 * the `message_recipients` rows (the write-ahead `attempt_at`, the result). The hand-over and take-back move
 * the lease between the device and the server in one transaction each, so exactly one side sends at a time.
 */
import type { HandoverBody, TakeBackResponse, TouchBody } from '../../core/contracts/api.ts'
import type { JobKind } from '../../core/contracts/marketing-core.ts'
import type { Queryable, Store } from '../db/store.ts'
import {
  handJobToServer,
  jobBusyUntil,
  jobResumePoint,
  MessageNotFound,
  takeJobBack,
  withLockedJob,
} from '../repo/messages.ts'
import { dropToken, keepSealedToken, sealedToken } from '../repo/message-page-tokens.ts'
import { AllowanceRefused, TouchRefused, touch } from '../repo/touch.ts'
import { LEASE_MS } from '../../core/bulk/lease.ts'
import {
  countRecipients,
  markReached,
  markUncertain,
  reachedCount,
  reserved,
} from '../repo/message-recipients.ts'
import type { TokenBox } from './token-box.ts'

// The job's row and its page token are read and written in the repo; the sender reads them from here.
export { readJob, type ServerJob } from '../repo/messages.ts'
export { dropToken } from '../repo/message-page-tokens.ts'

/** Untouched recipients this close after the last touched one may have been sent by a closing device. */
export const UNCERTAIN_TAIL = 5

/** A server send is in flight at most this long (the Graph timeout and the recording after it). */
export const BUSY_MS = 45_000

/** The job is not where the caller thought (another side holds it, or it ended). */
export class LeaseConflict extends Error {
  readonly lease: number
  readonly sender: string
  constructor(lease: number, sender: string, why: string) {
    super(why)
    this.name = 'LeaseConflict'
    this.lease = lease
    this.sender = sender
  }
}

/** A hand-over or start of a job as another kind than it was created: nothing is handed over. */
export class KindMismatch extends Error {
  constructor(readonly kind: JobKind) {
    super(`The job is of kind ${kind}.`)
    this.name = 'KindMismatch'
  }
}

/** Records the device's undelivered results through the one idempotent touch (the allowance is spent once). */
async function applyResults(store: Store, userId: string, id: string, results: readonly TouchBody[]) {
  for (const r of results) {
    try {
      await touch(store, userId, id, {
        status: r.status,
        recipient_id: r.recipient_id,
        sent_as_branded: r.sent_as_branded ?? false,
        error_data: r.error_data ?? null,
        message_id: r.message_id,
      })
    } catch (err) {
      // Nothing left to spend, or no room for that recipient: it is not recorded; the server's sender meets
      // the same refusal.
      if (!(err instanceof AllowanceRefused) && !(err instanceof TouchRefused)) throw err
    }
  }
}

/**
 * The device gives the job to the server. Its undelivered results are recorded first (idempotent); then, with
 * the job's row locked: the lease must be the one the device holds and the device must be the sender; the
 * sends it cannot vouch for become uncertain (any recipient it reached without a result too), the pacing
 * wait and the sealed page token are kept, and the lease moves on. Answers the new lease.
 *
 * The server's first send waits at least `pacingFloorMs` (the pacing's shortest wait) from the hand-over's
 * arrival, whatever wait the device reports: a closing page reports one read before its last send, and that
 * send may still be on its way to the network.
 */
export async function handOver(
  store: Store,
  box: TokenBox,
  userId: string,
  id: string,
  body: HandoverBody & { results: TouchBody[]; uncertain: NonNullable<HandoverBody['uncertain']> },
  pacingFloorMs = 0,
  now: () => number = Date.now,
): Promise<{ lease: number }> {
  const earliest = now() + pacingFloorMs
  await applyResults(store, userId, id, body.results)
  return withLockedJob(store, userId, id, async (tx, job) => {
    if (job.state !== 'open') throw new LeaseConflict(job.lease, job.sender, `The job is ${job.state}.`)
    if (job.sender !== 'device' || job.lease !== body.lease)
      throw new LeaseConflict(job.lease, job.sender, 'The job was handed over already.')
    if (body.kind && body.kind !== job.kind) throw new KindMismatch(job.kind)
    const known = await countRecipients(tx, id)
    if (known < job.total_messages)
      throw new LeaseConflict(job.lease, job.sender, 'The server does not have the whole recipient list yet.')
    for (const u of body.uncertain) await markUncertain(tx, id, u)
    // Reached by the device (before its cursor) with neither a result nor an attempt time: it may have gone
    // out; it is reconciled against the conversation since the job began before anything is sent again. A
    // closing page cannot say how far it got. A device that reserves each send first (its lease's
    // write-ahead) left an attempt time on every recipient it may have sent to: nothing more is taken as
    // reached. Without any reservation, the few untouched recipients after the last touched one are (the
    // device touches each send right after it).
    const cursor = body.cursor ?? (await reachedCount(tx, id, UNCERTAIN_TAIL))
    await markReached(tx, id, cursor, job.created_at)
    const lease = job.lease + 1
    await handJobToServer(tx, id, {
      lease,
      nextSendAt:
        pacingFloorMs > 0 ? Math.max(body.next_send_at ?? 0, earliest) : (body.next_send_at ?? null),
      messagingType: body.messaging_type ?? 'RESPONSE',
      brandedFrom: body.branded_from ?? -1,
      attachmentId: body.attachment_id ?? null,
    })
    await keepSealedToken(tx, { messageId: id, userId, pageId: job.page_id }, box.seal(body.page_token))
    return { lease }
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The device takes the job back: the lease moves on at once (the server's next claim fails), then the answer
 * waits for a send the server has in flight to be recorded, so the device never reconciles a send that is
 * still on its way. The sealed token is deleted. Idempotent for the device that already holds the job.
 */
export async function takeBack(
  store: Store,
  userId: string,
  id: string,
  waitStep = 200,
  leaseMs = LEASE_MS,
): Promise<TakeBackResponse> {
  // The device holds the lease from now (its heartbeat renews it).
  const moved = await takeJobBack(store, userId, id, leaseMs)
  if (!moved) throw new MessageNotFound()
  await dropToken(store, id)
  let busy = moved.busy_until
  while (busy && new Date(busy).getTime() > Date.now()) {
    await sleep(waitStep)
    busy = await jobBusyUntil(store, id)
  }
  const row = (await jobResumePoint(store, id))!
  const uncertain = await reserved(store, id)
  return {
    lease: moved.lease,
    sender: 'device',
    state: row.state,
    next_send_at: row.next_send_at ? new Date(row.next_send_at).getTime() : null,
    attachment_id: row.attachment_id,
    uncertain,
  }
}

/** The job's page token, opened; undefined when none is kept. */
export async function openToken(db: Queryable, box: TokenBox, id: string): Promise<string | undefined> {
  const sealed = await sealedToken(db, id)
  return sealed ? box.open(sealed) : undefined
}

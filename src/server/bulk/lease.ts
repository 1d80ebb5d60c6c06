/**
 * The job's lease on the server (docs/architecture.md#a-lease-not-a-goodbye). A device sends a job only while
 * it holds the lease: it takes it (`holdLease`, the epoch moves on when the holder changes), renews it with
 * its heartbeat, reserves each recipient here before it sends (`reserve`, the write-ahead the server can see)
 * and sends every record with the epoch (`fence`): a record of an older epoch is refused. When a "keep
 * sending" job's lease lapses, the server takes it (`takeLapsed`): the recipients reserved without a result
 * are reconciled against their conversations before anything is sent again (./server-sender.ts).
 */
import type { LeaseBody, ReserveBody } from '../../core/contracts/api.ts'
import { DEVICE_KINDS, deviceSends } from '../../core/bulk/kinds.ts'
import type { Queryable, Store } from '../db/store.ts'
import { dropToken, keepSealedToken } from '../repo/message-page-tokens.ts'
import { reserved, reserveRecipient, type Reserved } from '../repo/message-recipients.ts'
import {
  jobLease,
  MessageNotFound,
  renewLeaseBusy,
  setDeviceLease,
  takeLapsedJobs,
  withLockedJob,
} from '../repo/messages.ts'
import { KindMismatch, LeaseConflict } from './jobs.ts'
import type { TokenBox } from './token-box.ts'

/**
 * A device's send is in flight at most this long after its reservation (its Graph timeout and the way back):
 * the server that takes a lapsed job waits for it before it reconciles the reserved recipient.
 */
export const DEVICE_SEND_MS = 35_000

/** A reservation's attempt time is set this much before the server's clock, for the network's clock. */
const ATTEMPT_SLACK_MS = 2_000

export interface LeaseGrant {
  epoch: number
  /** How long the lease lasts from the answer (the holder renews it every third of it). */
  lease_ms: number
  sender: 'device'
  /** Recipients reserved by an earlier holder without a result: reconciled before any retry. */
  uncertain: Reserved[]
}

/**
 * Takes or renews the device's lease. The holder of `epoch` renews it (even past its end, while nobody took
 * the job); the browser profile that holds it (`holder`) takes it back at once without it, with the next
 * epoch, so its old worker's records are refused from then (a reload or a crash right after the lease was
 * granted); anyone else takes it, with the next epoch, only once it lapsed. Refused (LeaseConflict) while the
 * server sends the job, while another holder's lease runs, or once the job ended. With `keep_sending` the
 * page token is sealed here, so the server can go on alone if the lease lapses.
 */
export async function holdLease(
  store: Store,
  box: TokenBox,
  userId: string,
  id: string,
  body: LeaseBody,
  leaseMs: number,
): Promise<LeaseGrant> {
  return withLockedJob(store, userId, id, async (tx, row) => {
    if (row.state !== 'open') throw new LeaseConflict(row.lease, row.sender, `The job is ${row.state}.`)
    if (!deviceSends(row.kind)) throw new KindMismatch(row.kind)
    if (row.sender === 'server')
      throw new LeaseConflict(row.lease, row.sender, 'The server is sending the job.')
    const renewing = row.held && body.epoch === row.lease
    // Only a worker that does not know its epoch takes it back: a stale epoch is an older worker's.
    const sameHolder = row.held && body.epoch == null && !!body.holder && body.holder === row.lease_holder
    if (!renewing && !sameHolder && row.live)
      throw new LeaseConflict(row.lease, row.sender, 'Another device holds the job.')
    const epoch = renewing ? row.lease : row.lease + 1
    // The token comes when the lease is taken; a heartbeat keeps the one sealed then.
    const sealed = body.keep_sending && body.page_token ? box.seal(body.page_token) : undefined
    await setDeviceLease(tx, id, {
      epoch,
      leaseMs,
      keepSending: body.keep_sending,
      sealed: !!sealed,
      holder: body.holder ?? null,
      renewing,
    })
    if (sealed) await keepSealedToken(tx, { messageId: id, userId, pageId: row.page_id }, sealed)
    else if (!body.keep_sending) await dropToken(tx, id)
    const uncertain = renewing ? [] : await reserved(tx, id)
    return { epoch, lease_ms: leaseMs, sender: 'device', uncertain }
  })
}

/**
 * The holder's write-ahead, before it sends: the recipients are marked attempted (a result or a reconciling
 * settles them) and the lease is renewed. Refused unless `epoch` holds a lease still running: a device whose
 * lease lapsed or moved on sends nothing more. Answers the lease's new length.
 */
export async function reserve(
  store: Store,
  userId: string,
  id: string,
  body: ReserveBody,
  leaseMs: number,
): Promise<{ epoch: number; lease_ms: number }> {
  return withLockedJob(store, userId, id, async (tx, row) => {
    if (row.state !== 'open' || row.sender !== 'device' || row.lease !== body.epoch || !row.live)
      throw new LeaseConflict(row.lease, row.sender, 'The lease is not held.')
    for (const r of body.recipients) await reserveRecipient(tx, id, r, ATTEMPT_SLACK_MS)
    await renewLeaseBusy(tx, id, leaseMs, DEVICE_SEND_MS)
    return { epoch: row.lease, lease_ms: leaseMs }
  })
}

/** A device's record (a result) of `epoch`: refused unless that epoch is the device's lease of the job. */
export async function fence(db: Queryable, userId: string, id: string, epoch: number): Promise<void> {
  const row = await jobLease(db, userId, id)
  if (!row) throw new MessageNotFound()
  if (row.sender !== 'device' || row.lease !== epoch)
    throw new LeaseConflict(row.lease, row.sender, 'The record is of an earlier holder of the job.')
}

/**
 * The server takes every "keep sending" job whose device lease lapsed (with its sealed page token and its
 * whole recipient list): the epoch moves on, so the old holder's records are refused from now. Its reserved
 * recipients stay attempted and are reconciled before anything is sent. Answers the ids taken.
 */
export async function takeLapsed(db: Queryable): Promise<string[]> {
  return takeLapsedJobs(db, DEVICE_KINDS)
}

/** The sender's state transitions in Dexie, each one transaction so a crash leaves a consistent record. */
import { Dexie } from 'dexie'
import { db, type BulkJobState, type TouchOutboxEntry } from '../db/db.ts'
import type { TouchBody } from '../../core/contracts/api.ts'
import { jobs, outbox, recipients, type JobRecord, type RecipientRecord } from './records.ts'
import type { Counts } from './protocol.ts'
import { touchEntry } from './touch-outbox.ts'

export interface ResultInput {
  job: JobRecord
  recipient: RecipientRecord
  ok: boolean
  branded: boolean
  error?: string
  now: number
  nextSendAt: number
  /** Outbox keys whose touches the server acknowledged: removed in this transaction too. */
  acknowledged?: readonly string[]
  /** The network's id of the delivered message, when known (the server keeps an opt-in request's). */
  messageId?: string | undefined
  /** The lease epoch of the run recording it: a run whose lease moved on records nothing ('stale'). */
  lease?: number
}

export interface Recorded {
  counts: Counts
  entry: TouchOutboxEntry
}

/** The result, the job counts, the queued touch and the next send time, together. */
export async function recordResult(input: ResultInput) {
  const { job, recipient, ok, branded, error, now, nextSendAt, acknowledged, messageId, lease } = input
  const body: TouchBody = {
    _method: 'PUT',
    status: ok ? 'OK' : 'NG',
    recipient_id: recipient.recipientId,
    error_data: ok
      ? null
      : { error_message: error ?? '', recipent_id: recipient.recipientId, recipent_name: recipient.name },
    sent_as_branded: ok && branded,
    ...(ok && messageId ? { message_id: messageId } : {}),
    // The lease's epoch: the server refuses the result of a holder whose lease moved on.
    ...(job.serverLease !== undefined ? { epoch: job.serverLease } : {}),
  }
  const entry = touchEntry(job.id, recipient.recipientId, body, now)
  return db.transaction('rw', jobs, recipients, outbox, async (): Promise<Recorded | 'stale' | undefined> => {
    if (acknowledged && acknowledged.length > 0) await outbox.bulkDelete([...acknowledged])
    const fresh = await jobs.get(job.id)
    if (!fresh) return undefined
    // The write-ahead stays `sending`: the lease's new holder reconciles it.
    if (lease !== undefined && fresh.lease !== lease) return 'stale'
    const current = await recipients.get(recipient.key)
    // Recorded already (a reconciled or repeated step): counts must not move twice.
    if (!current || current.state === 'sent' || current.state === 'rejected') return undefined
    // Whole rows are put back (read in this transaction): no second read per update.
    const result: RecipientRecord = { ...current, state: ok ? 'sent' : 'rejected', branded: ok && branded }
    if (ok) delete result.error
    else result.error = error
    await recipients.put(result)
    const counts = {
      sent: fresh.sent + (ok ? 1 : 0),
      rejected: fresh.rejected + (ok ? 0 : 1),
      skipped: fresh.skipped,
      total: fresh.total,
    }
    await jobs.put({ ...fresh, sent: counts.sent, rejected: counts.rejected, nextSendAt })
    await outbox.put(entry)
    return { counts, entry }
  })
}

/** The network answered with an error, so nothing went out: the recipient waits for another try. */
export async function backToPending(key: string, changes: Partial<RecipientRecord> = {}): Promise<void> {
  await recipients.update(key, { state: 'pending', ...changes })
}

export async function setJobState(
  jobId: string,
  state: BulkJobState,
  extra: Partial<
    Pick<
      JobRecord,
      'stopReason' | 'nextSendAt' | 'attachmentId' | 'brandedFrom' | 'recipientsSynced' | 'serverStateSynced'
    >
  > = {},
): Promise<void> {
  await jobs.update(jobId, { state, ...extra })
}

/**
 * No allowance left and no branded messages (or the owner cancelled): the rest are skipped, visibly, and the
 * job stops. Pending rows become `skipped`; the recipients the sender never reached are skipped as one range
 * (the cursor moves to the end), so the count is right without a row each.
 */
export async function skipRest(jobId: string, reason: string): Promise<number> {
  return db.transaction('rw', jobs, recipients, async () => {
    const rows = await recipients
      .where('[jobId+state+order]')
      .between([jobId, 'pending', Dexie.minKey], [jobId, 'pending', Dexie.maxKey])
      .modify({ state: 'skipped' })
    const job = await jobs.get(jobId)
    if (!job) return rows
    const cursor = job.cursor ?? job.total
    const n = rows + Math.max(0, job.total - cursor)
    await jobs.update(jobId, {
      skipped: job.skipped + n,
      state: 'stopped',
      stopReason: reason,
      ...(cursor < job.total ? { cursor: job.total, skippedFrom: cursor } : {}),
    })
    return n
  })
}

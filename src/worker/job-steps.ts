/** The sender's state transitions in Dexie, each one transaction so a crash leaves a consistent record. */
import { Dexie } from 'dexie'
import { db, type BulkJobState, type TouchOutboxEntry } from '../shared/db/db.ts'
import type { TouchBody } from '../shared/contracts/api.ts'
import { jobs, outbox, recipients, type JobRecord, type RecipientRecord } from './records.ts'
import type { Counts } from './protocol.ts'
import { touchEntry } from './touch-outbox.ts'

export class LeaseLost extends Error {
  constructor() {
    super('another sender holds this job')
    this.name = 'LeaseLost'
  }
}

/** Write-ahead: the recipient is `sending` before the request leaves, unless the lease moved on. */
export async function markSending(
  jobId: string,
  key: string,
  lease: number,
  now: number,
  branded: boolean,
): Promise<void> {
  await db.transaction('rw', jobs, recipients, async () => {
    const job = await jobs.get(jobId)
    if (!job || job.lease !== lease) throw new LeaseLost()
    const r = await recipients.get(key)
    if (!r) throw new LeaseLost()
    await recipients.update(key, { state: 'sending', attemptAt: now, attempts: r.attempts + 1, branded })
    if (job.state !== 'running') await jobs.update(jobId, { state: 'running', stopReason: undefined })
  })
}

export interface ResultInput {
  job: JobRecord
  recipient: RecipientRecord
  ok: boolean
  branded: boolean
  error?: string
  now: number
  nextSendAt: number
}

export interface Recorded {
  counts: Counts
  entry: TouchOutboxEntry
}

/** The result, the job counts, the queued touch and the next send time, together. */
export async function recordResult({ job, recipient, ok, branded, error, now, nextSendAt }: ResultInput) {
  const body: TouchBody = {
    _method: 'PUT',
    status: ok ? 'OK' : 'NG',
    recipient_id: recipient.recipientId,
    error_data: ok
      ? null
      : { error_message: error ?? '', recipent_id: recipient.recipientId, recipent_name: recipient.name },
    sent_as_branded: ok && branded,
  }
  const entry = touchEntry(job.id, recipient.recipientId, body, now)
  return db.transaction('rw', jobs, recipients, outbox, async (): Promise<Recorded | undefined> => {
    const current = await recipients.get(recipient.key)
    // Recorded already (a reconciled or repeated step): counts must not move twice.
    if (!current || current.state === 'sent' || current.state === 'rejected') return undefined
    await recipients.update(recipient.key, {
      state: ok ? 'sent' : 'rejected',
      branded: ok && branded,
      error: ok ? undefined : error,
    })
    const fresh = await jobs.get(job.id)
    if (!fresh) return undefined
    const counts = {
      sent: fresh.sent + (ok ? 1 : 0),
      rejected: fresh.rejected + (ok ? 0 : 1),
      skipped: fresh.skipped,
      total: fresh.total,
    }
    await jobs.update(job.id, { sent: counts.sent, rejected: counts.rejected, nextSendAt })
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

/** No allowance left and no branded messages: the rest are skipped, visibly, and the job stops. */
export async function skipRest(jobId: string, reason: string): Promise<number> {
  return db.transaction('rw', jobs, recipients, async () => {
    const n = await recipients
      .where('[jobId+state+order]')
      .between([jobId, 'pending', Dexie.minKey], [jobId, 'pending', Dexie.maxKey])
      .modify({ state: 'skipped' })
    const job = await jobs.get(jobId)
    if (job) await jobs.update(jobId, { skipped: job.skipped + n, state: 'stopped', stopReason: reason })
    return n
  })
}

/**
 * The bulk tables as the sender reads and writes them. The rows carry a few fields beyond the base shapes of
 * db.ts; they are optional so rows written by any version stay readable.
 */
import { Dexie, type EntityTable } from 'dexie'
import {
  db,
  type BulkJob,
  type BulkRecipient,
  type RecipientState,
  type TouchOutboxEntry,
} from '../shared/db/db.ts'
import type { MessagingPolicyName } from '../shared/policy/tags.ts'

export interface JobRecord extends BulkJob {
  /** Branded messages were authorised when the job started (the footer replaces a stop at 0 available). */
  brandedAuthorised?: boolean
  /** The server has the recipient list (PUT /messages/{id}/recipients). */
  recipientsSynced?: boolean
  /** The server was told the final state. */
  serverStateSynced?: boolean
  policy?: MessagingPolicyName
}

export interface RecipientRecord extends BulkRecipient {
  /** The image went out; only the text remains (never send the image twice). */
  imageSent?: boolean
}

export const jobs = db.bulkJobs as unknown as EntityTable<JobRecord, 'id'>
export const recipients = db.bulkRecipients as unknown as EntityTable<RecipientRecord, 'key'>
export const outbox: EntityTable<TouchOutboxEntry, 'key'> = db.touchOutbox

export const recipientKey = (jobId: string, recipientId: string) => `${jobId}:${recipientId}`

/** Jobs the sender should work on, oldest first. */
export const RUNNABLE_STATES: BulkJob['state'][] = [
  'queued',
  'running',
  'waiting_connection',
  'rate_limited',
  'needs_signin',
]

export function firstInState(jobId: string, state: RecipientState): Promise<RecipientRecord | undefined> {
  return recipients
    .where('[jobId+state+order]')
    .between([jobId, state, Dexie.minKey], [jobId, state, Dexie.maxKey])
    .first()
}

export function countInState(jobId: string, state: RecipientState): Promise<number> {
  return recipients
    .where('[jobId+state+order]')
    .between([jobId, state, Dexie.minKey], [jobId, state, Dexie.maxKey])
    .count()
}

/** All recipients of a job, by the `[jobId+order]` index. */
export function recipientsOf(jobId: string) {
  return recipients.where('[jobId+order]').between([jobId, Dexie.minKey], [jobId, Dexie.maxKey])
}

export async function runnableJobs(): Promise<JobRecord[]> {
  const list = await jobs.where('state').anyOf(RUNNABLE_STATES).toArray()
  return list.sort((a, b) => a.createdAt - b.createdAt)
}

/** A new holder of the sender takes the job: any older holder's next lease check fails. */
export async function claimLease(jobId: string): Promise<number | undefined> {
  return db.transaction('rw', jobs, async () => {
    const job = await jobs.get(jobId)
    if (!job) return undefined
    const lease = job.lease + 1
    await jobs.update(jobId, { lease })
    return lease
  })
}

/**
 * Writes a new job and its recipients in one transaction. Chunked `bulkAdd` (no read-before-write) keeps
 * 100,000 rows fast and the memory flat.
 */
export async function writeJob(job: JobRecord, list: RecipientRecord[], chunk = 20_000): Promise<void> {
  await db.transaction('rw', jobs, recipients, async () => {
    await jobs.put(job)
    for (let i = 0; i < list.length; i += chunk) await recipients.bulkAdd(list.slice(i, i + chunk))
  })
}

/** Deletes a job with its recipients and queued touches. */
export async function deleteJob(jobId: string): Promise<void> {
  await db.transaction('rw', jobs, recipients, outbox, async () => {
    await recipientsOf(jobId).delete()
    await outbox.where('jobId').equals(jobId).delete()
    await jobs.delete(jobId)
  })
}

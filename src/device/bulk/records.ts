/** The bulk tables as the sender and the screens read and write them (the rows are typed in db.ts). */
import { Dexie } from 'dexie'
import {
  db,
  type AudienceMember,
  type BulkJob,
  type BulkRecipient,
  type RecipientChunk,
  type RecipientState,
} from '../db/db.ts'

/** The bulk tables' rows, as typed in db.ts. */
export type JobRecord = BulkJob
export type RecipientRecord = BulkRecipient
export type { AudienceMember, RecipientChunk }

export const CHUNK_SIZE = 1_000

export const jobs = db.bulkJobs
export const recipients = db.bulkRecipients
export const chunks = db.bulkRecipientChunks
export const outbox = db.touchOutbox

/**
 * The `meta` entry of when this device's next recipients call (PUT /messages/{id}/recipients) may go, for every
 * job: the route's limit counts the user's calls (see sync-recipients.ts).
 */
export const RECIPIENTS_NEXT_AT = 'recipients-next-at'

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
 * Writes a new job, its audience as chunks, and any state rows it starts with (a job rebuilt from the server
 * remembers its touched and uncertain recipients), in one transaction.
 */
export async function writeJob(
  job: JobRecord,
  audience: readonly AudienceMember[],
  rows: readonly RecipientRecord[] = [],
): Promise<void> {
  const list: RecipientChunk[] = []
  for (let c = 0; c * CHUNK_SIZE < audience.length; c++) {
    const part = audience.slice(c * CHUNK_SIZE, (c + 1) * CHUNK_SIZE)
    list.push({
      jobId: job.id,
      chunk: c,
      ids: part.map((m) => m.recipientId),
      names: part.map((m) => m.name),
      conversations: part.map((m) => m.conversationId),
      ...(part.some((m) => m.way && m.way !== 'standard')
        ? { ways: part.map((m) => m.way ?? 'standard') }
        : {}),
    })
  }
  await db.transaction('rw', jobs, recipients, chunks, async () => {
    await jobs.put({ ...job, cursor: job.cursor ?? 0 })
    await chunks.bulkAdd(list)
    if (rows.length > 0) await recipients.bulkAdd([...rows])
  })
}

/** The member at position `i` of a chunk (undefined past its end). */
export function memberOf(row: RecipientChunk, i: number): AudienceMember | undefined {
  if (i >= row.ids.length) return undefined
  const way = row.ways?.[i]
  return {
    recipientId: row.ids[i]!,
    name: row.names[i]!,
    conversationId: row.conversations[i]!,
    ...(way && way !== 'standard' ? { way } : {}),
  }
}

function chunksOf(jobId: string) {
  return chunks.where('[jobId+chunk]').between([jobId, Dexie.minKey], [jobId, Dexie.maxKey])
}

/** The whole audience in order: from the chunks, or from the rows of a job written before them. */
export async function audienceOf(jobId: string): Promise<AudienceMember[]> {
  const parts = await chunksOf(jobId).toArray()
  if (parts.length > 0) {
    return parts.flatMap((p) => p.ids.map((_, i) => memberOf(p, i)!))
  }
  const rows = await recipientsOf(jobId).toArray()
  return rows.map((r) => ({ recipientId: r.recipientId, name: r.name, conversationId: r.conversationId }))
}

/**
 * At most `count` members of the audience from position `from`, in order: only the chunks that hold them are
 * read (or the rows of a job written before the chunks).
 */
export async function audienceRange(jobId: string, from: number, count: number): Promise<AudienceMember[]> {
  if (count <= 0) return []
  const first = Math.floor(from / CHUNK_SIZE)
  const last = Math.floor((from + count - 1) / CHUNK_SIZE)
  const parts = await chunks
    .where('[jobId+chunk]')
    .between([jobId, first], [jobId, last], true, true)
    .toArray()
  if (parts.length > 0) {
    const start = from - first * CHUNK_SIZE
    return parts.flatMap((p) => p.ids.map((_, i) => memberOf(p, i)!)).slice(start, start + count)
  }
  // Past the end of a chunked audience; or a job with a row per recipient, whose rows are its audience.
  if ((await chunksOf(jobId).count()) > 0) return []
  const rows = await recipientsOf(jobId).offset(from).limit(count).toArray()
  return rows.map((r) => ({ recipientId: r.recipientId, name: r.name, conversationId: r.conversationId }))
}

/** Deletes a job with its audience, its recipients' states and its queued touches. */
export async function deleteJob(jobId: string): Promise<void> {
  await db.transaction('rw', [jobs, recipients, chunks, outbox], async () => {
    await recipientsOf(jobId).delete()
    await chunksOf(jobId).delete()
    await outbox.where('jobId').equals(jobId).delete()
    await jobs.delete(jobId)
  })
}

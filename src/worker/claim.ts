/**
 * Choosing the next recipient and writing its write-ahead `sending` in one transaction, together with the
 * lease and state check: a stale holder, a paused or cancelled job, or a stop for the allowance is seen before
 * anything is written, and a recipient is never sent without its `sending` row on disk first.
 */
import { db } from '../device/db/db.ts'
import type { SendMode } from '../core/bulk/allowance.ts'
import { deviceMaySend } from '../core/bulk/kinds.ts'
import {
  CHUNK_SIZE,
  chunks,
  countInState,
  firstInState,
  jobs,
  memberOf,
  recipientKey,
  recipients,
  RUNNABLE_STATES,
  type AudienceMember,
  type JobRecord,
  type RecipientChunk,
  type RecipientRecord,
} from '../device/bulk/records.ts'

export type Claim =
  /** The job is gone, another holder took it, or it is no longer runnable: the loop reads it again. */
  | { kind: 'stale' }
  /** No pending recipient is left; `sending` tells whether one is still uncertain. */
  | { kind: 'empty'; job: JobRecord; sending: boolean }
  /** The allowance is spent and no branded messages: the job stops before this recipient. */
  | { kind: 'stop'; job: JobRecord }
  | { kind: 'recipient'; job: JobRecord; recipient: RecipientRecord; branded: boolean }
  /** The next recipient is reached as a marketing message: only the server sends it; nothing is written. */
  | { kind: 'server_only'; job: JobRecord }

/**
 * The next recipient is the lowest pending row (one sent back for a retry) or else the one at the cursor,
 * whose state row is created here as `sending` while the cursor moves past it.
 */
/**
 * What one run of the sender remembers between claims. The chunks are only read while the lease is ours, and
 * a job's audience never changes while it exists, so a chunk read once stays right for the whole run.
 * `retries` says whether a pending row (a recipient sent back for another try) may exist: only the holder of
 * the lease writes such rows, so once none is found the index need not be read again until one is written.
 */
export interface ClaimMemory {
  chunk?: RecipientChunk
  retries: boolean
}

export async function claimNext(
  jobId: string,
  lease: number,
  now: number,
  decide: (order: number, job: JobRecord) => SendMode,
  memory: ClaimMemory = { retries: true },
): Promise<Claim> {
  return db.transaction('rw', jobs, recipients, chunks, async (): Promise<Claim> => {
    const job = await jobs.get(jobId)
    if (!job || job.lease !== lease || !RUNNABLE_STATES.includes(job.state)) return { kind: 'stale' }
    const cursor = job.cursor ?? job.total
    let r = memory.retries ? await firstInState(jobId, 'pending') : undefined
    if (!r) memory.retries = false
    if (!r && cursor < job.total) {
      const m = await memberFromChunk(jobId, cursor, memory)
      // A job's chunks are written with it; a missing one is a storage failure, never an empty audience.
      if (!m) throw new Error(`the audience of job ${jobId} is missing recipient ${cursor}`)
      r = {
        key: recipientKey(jobId, m.recipientId),
        jobId,
        ...m,
        order: cursor,
        state: 'pending',
        attempts: 0,
      }
    }
    if (!r) return { kind: 'empty', job, sending: (await countInState(jobId, 'sending')) > 0 }
    // A marketing job is sent by the server only, whatever its recipient's way says (a row rebuilt without it).
    if (!deviceMaySend(job.kind, r.way)) return { kind: 'server_only', job }
    const mode = decide(r.order, job)
    if (mode === 'stop') return { kind: 'stop', job }
    const branded = mode === 'branded'
    const row: RecipientRecord = { ...r, state: 'sending', attemptAt: now, attempts: r.attempts + 1, branded }
    await recipients.put(row)
    const changes: Partial<JobRecord> = {}
    if (r.order >= cursor) changes.cursor = r.order + 1
    if (job.state !== 'running') changes.state = 'running'
    if (Object.keys(changes).length > 0) {
      Object.assign(job, changes)
      if (changes.state) delete job.stopReason
      await jobs.put(job)
    }
    return { kind: 'recipient', job, recipient: row, branded }
  })
}

async function memberFromChunk(
  jobId: string,
  index: number,
  memory: ClaimMemory,
): Promise<AudienceMember | undefined> {
  const c = Math.floor(index / CHUNK_SIZE)
  if (memory.chunk?.jobId !== jobId || memory.chunk.chunk !== c) memory.chunk = await chunks.get([jobId, c])
  return memory.chunk && memberOf(memory.chunk, index % CHUNK_SIZE)
}

/**
 * Gives the server the job's recipient list (so it can be resumed elsewhere), in order, in calls of
 * RECIPIENTS_PER_CALL_MAX. The upload resumes: the job keeps how many recipients the server has acknowledged,
 * so after a failure, a reload or a closed tab the next call carries the first ones the server does not have
 * yet, and none it acknowledged is sent again (only a call whose answer never came is, and the server ignores
 * its repeats). The calls keep to the route's per-user limit: one call at a time on this device, a wait
 * between two calls kept in IndexedDB, and the server's Retry-After after a 429.
 */
import { RECIPIENTS_PER_CALL_MAX, type RecipientInput } from '../../core/contracts/api.ts'
import type { SenderApi } from '../../core/bulk/ports.ts'
import { db } from '../db/db.ts'
import { audienceRange, jobs, RECIPIENTS_NEXT_AT, type AudienceMember } from './records.ts'

export const RECIPIENTS_PER_CALL = RECIPIENTS_PER_CALL_MAX

/** The route's calls per minute and user (the server's `RATE_LIMIT_NETWORK_PER_MIN`, 30 by default). */
export const RECIPIENT_CALLS_PER_MIN = 30

/**
 * The wait from one call's answer to the next call, a little over the limit's share of a minute: the server
 * counts a call before it answers, so no window of the limit sees more calls than it allows.
 */
export const RECIPIENT_CALL_GAP_MS = Math.ceil(60_000 / RECIPIENT_CALLS_PER_MIN) + 100

/** A 429 without Retry-After waits out the limit's window. */
export const RECIPIENTS_LIMITED_MS = 60_000
/** The longest wait kept: one further away means the device's clock moved back, and the call goes. */
export const RECIPIENTS_WAIT_MAX_MS = 15 * 60_000

const LOCK = 'pagecast-recipients'

export type UploadStep =
  /** The server has the whole list. */
  | { kind: 'synced' }
  /** The next call may go in `ms`: the pacing, the server's Retry-After, or another tab's call in flight. */
  | { kind: 'wait'; ms: number }
  /** No answer (offline) or a refusal other than the limit: tried again later, from the same place. */
  | { kind: 'failed' }

export interface UploadClock {
  now(): number
  sleep(ms: number): Promise<void>
}

const realClock: UploadClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

function input(r: AudienceMember): RecipientInput {
  return {
    recipient_id: r.recipientId,
    name: r.name,
    conversation_id: r.conversationId,
    ...(r.way && r.way !== 'standard' ? { way: r.way } : {}),
  }
}

async function nextCallAt(): Promise<number> {
  return Number((await db.meta.get(RECIPIENTS_NEXT_AT))?.value ?? 0) || 0
}

function waitUntil(at: number): Promise<unknown> {
  return db.meta.put({ key: RECIPIENTS_NEXT_AT, value: String(at) })
}

async function stepUnlocked(api: SenderApi, jobId: string, now: () => number): Promise<UploadStep> {
  const job = await jobs.get(jobId)
  if (!job || job.recipientsSynced) return { kind: 'synced' }
  const wait = (await nextCallAt()) - now()
  if (wait > 0 && wait <= RECIPIENTS_WAIT_MAX_MS) return { kind: 'wait', ms: wait }
  const from = job.recipientsUploaded ?? 0
  // One more than a call carries tells whether this call is the last.
  const list = await audienceRange(jobId, from, RECIPIENTS_PER_CALL + 1)
  const part = list.slice(0, RECIPIENTS_PER_CALL)
  if (part.length === 0) {
    await jobs.update(jobId, { recipientsSynced: true })
    return { kind: 'synced' }
  }
  let total: number
  try {
    ;({ total } = await api.putRecipients(jobId, part.map(input)))
  } catch (err) {
    const e = err as { status?: unknown; retryAfterMs?: unknown } | null
    if (e?.status !== 429) {
      // The call may have been counted all the same: the next one keeps its distance too.
      await waitUntil(now() + RECIPIENT_CALL_GAP_MS)
      return { kind: 'failed' }
    }
    const asked = typeof e.retryAfterMs === 'number' ? e.retryAfterMs : RECIPIENTS_LIMITED_MS
    const ms = Math.min(Math.max(asked, RECIPIENT_CALL_GAP_MS), RECIPIENTS_WAIT_MAX_MS)
    await waitUntil(now() + ms)
    return { kind: 'wait', ms }
  }
  // The server numbers the recipients in the order they came and counts each once: its list ends at least
  // where this call's part does (further only when another upload got there first).
  const uploaded = Math.max(from + part.length, total)
  const done = list.length <= RECIPIENTS_PER_CALL
  await db.transaction('rw', jobs, db.meta, async () => {
    await jobs.update(jobId, { recipientsUploaded: uploaded, ...(done ? { recipientsSynced: true } : {}) })
    await waitUntil(now() + RECIPIENT_CALL_GAP_MS)
  })
  return done ? { kind: 'synced' } : { kind: 'wait', ms: RECIPIENT_CALL_GAP_MS }
}

/** At most one call: the next part of the list, unless the server has it all or the next call must wait. */
export async function uploadStep(api: SenderApi, jobId: string, now = () => Date.now()): Promise<UploadStep> {
  if (typeof navigator === 'undefined' || !navigator.locks) return stepUnlocked(api, jobId, now)
  // One call at a time on this device, whichever tab or worker makes it; the others look again later.
  const step: UploadStep = await navigator.locks.request(LOCK, { ifAvailable: true }, (lock) =>
    lock ? stepUnlocked(api, jobId, now) : { kind: 'wait' as const, ms: RECIPIENT_CALL_GAP_MS },
  )
  return step
}

/**
 * The whole list, waiting out the pacing and a 429's Retry-After between the calls. True when the server has
 * it all; false when a call failed (offline, a server error): the next try goes on from there.
 */
export async function syncRecipients(
  api: SenderApi,
  jobId: string,
  clock: UploadClock = realClock,
): Promise<boolean> {
  for (;;) {
    const step = await uploadStep(api, jobId, clock.now)
    if (step.kind !== 'wait') return step.kind === 'synced'
    await clock.sleep(step.ms)
  }
}

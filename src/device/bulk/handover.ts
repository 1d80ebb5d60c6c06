/**
 * The device's side of the hand-over (docs/architecture.md#the-send-goes-on-without-the-phone). Handing over:
 * the job leaves the device's runnable states and its lease moves on in one transaction (the worker's next
 * lease check fails, so it sends nothing more), then the server gets the job's undelivered results, its
 * uncertain sends (the `sending` rows, with their attempt times), the cursor, the pacing wait and the page
 * token (kept sealed on the server, never written here). Taking back: the server's lease moves on and its send
 * in flight is recorded before it answers; the device then takes the server's record as the truth for every
 * recipient (results, uncertain sends reconciled before any retry, the rest pending) and goes on.
 */
import { Dexie } from 'dexie'
import type { HandoverBody, StoredRecipient, TakeBackResponse, TouchBody } from '../../core/contracts/api.ts'
import { apiAnswer, isSuccess, failure, type ApiTransport } from '../../core/api/request.ts'
import { db } from '../db/db.ts'
import { deviceSends } from '../../core/bulk/kinds.ts'
import {
  chunks,
  jobs,
  outbox,
  recipientKey,
  recipients,
  RUNNABLE_STATES,
  type JobRecord,
  type RecipientRecord,
} from './records.ts'

/**
 * A job the owner wants carried on, in a state the device would send it in. A marketing job is not: it goes to
 * the server only with its campaign (`POST /messages/{id}/marketing`), never by this hand-over.
 */
export function handsOver(job: JobRecord): boolean {
  return !!job.keepSending && deviceSends(job.kind) && RUNNABLE_STATES.includes(job.state)
}

/**
 * A job the device takes back from the server to send it itself. A marketing job stays with the server's
 * marketing sender (the owner's pause or cancel takes it back, paused, and its Resume gives it back).
 */
export function takenBackToSend(job: JobRecord): boolean {
  return deviceSends(job.kind)
}

/** What every hand-over tells the server of the job, read from the job's record alone. */
function handoverHead(job: JobRecord, pageToken: string) {
  return {
    lease: job.serverLease ?? 0,
    page_token: pageToken,
    next_send_at: job.nextSendAt || null,
    messaging_type: job.messagingType,
    branded_from: job.brandedFrom,
    kind: job.kind,
  } satisfies HandoverBody
}

function postHandover(transport: ApiTransport, jobId: string, body: HandoverBody, keepalive: boolean) {
  return apiAnswer(
    `/messages/${encodeURIComponent(jobId)}/handover`,
    { method: 'POST', body, keepalive },
    transport,
  )
}

/**
 * The hand-over of a closing page: `pagehide` leaves no time to read the job's rows, so it goes from a record
 * read before (no cursor: the server treats the tail as uncertain), in a request that outlives the page, and
 * its answer is never read. The device's record moves on too if the page lives long enough; if not, the next
 * start takes the job back before its sender runs.
 */
export function handOverClosingJob(transport: ApiTransport, job: JobRecord, pageToken: string): void {
  void jobs.update(job.id, { state: 'on_server', lease: job.lease + 1 })
  postHandover(transport, job.id, handoverHead(job, pageToken), true).catch(() => undefined)
}

/**
 * Stops the device's sending of the job and hands it to the server. With `keepalive` the request outlives a
 * closing page (its answer may never be read). Answers whether the server took it.
 */
export async function handOverJob(
  transport: ApiTransport,
  jobId: string,
  pageToken: string,
  keepalive = false,
): Promise<boolean> {
  const prepared = await db.transaction('rw', jobs, recipients, outbox, async () => {
    const job = await jobs.get(jobId)
    if (!job || !handsOver(job)) return undefined
    await jobs.update(jobId, { state: 'on_server', lease: job.lease + 1 })
    const sending = await recipients
      .where('[jobId+state+order]')
      .between([jobId, 'sending', Dexie.minKey], [jobId, 'sending', Dexie.maxKey])
      .toArray()
    const queued = await outbox.where('jobId').equals(jobId).toArray()
    const body: HandoverBody = {
      ...handoverHead(job, pageToken),
      cursor: job.cursor ?? job.total,
      attachment_id: job.attachmentId ?? null,
      results: queued.map((e) => e.body as TouchBody),
      uncertain: sending.map((r) => ({
        recipient_id: r.recipientId,
        attempt_at: r.attemptAt ?? job.createdAt,
        image_sent: !!r.imageSent,
        branded: !!r.branded,
      })),
    }
    return { body, previous: job.state }
  })
  if (!prepared) return false
  try {
    const answer = await postHandover(transport, jobId, prepared.body, keepalive)
    if (isSuccess(answer.status)) {
      await jobs.update(jobId, { serverLease: (answer.body as { lease: number }).lease })
      return true
    }
    // Refused (the server lacks the recipient list, or the lease moved): the device keeps sending.
    await jobs.update(jobId, { state: prepared.previous })
    return false
  } catch {
    // No answer (offline, or the page went): taken back on return, which is harmless if it never arrived.
    return false
  }
}

/**
 * Takes a server-held job back and rebuilds its recipients' states from the server's record. Answers false
 * when the server could not be asked (the job stays `on_server` and is taken back later). A job still open
 * goes back in the device's queue, or is left paused when `then` says so (the owner paused or cancels it from
 * its card; a job the owner paused meanwhile stays paused too).
 */
export async function takeBackJob(
  transport: ApiTransport,
  jobId: string,
  then: 'queued' | 'paused' = 'queued',
): Promise<boolean> {
  let back: TakeBackResponse
  try {
    const answer = await apiAnswer(
      `/messages/${encodeURIComponent(jobId)}/take-back`,
      { method: 'POST', body: {} },
      transport,
    )
    if (answer.status === 404) {
      await jobs.update(jobId, { state: 'stopped', stopReason: 'gone' })
      return true
    }
    if (!isSuccess(answer.status)) throw failure(answer)
    back = answer.body as TakeBackResponse
    const list: StoredRecipient[] = []
    let after: string | null = null
    do {
      const q = new URLSearchParams({ limit: '1000' })
      if (after) q.set('after', after)
      const page = await apiAnswer(`/messages/${encodeURIComponent(jobId)}/recipients?${q}`, {}, transport)
      if (!isSuccess(page.status)) throw failure(page)
      const body = page.body as { data: StoredRecipient[]; next: string | null }
      list.push(...body.data)
      after = body.next
    } while (after)
    await adopt(jobId, back, list, then)
    return true
  } catch {
    return false
  }
}

/** The server's record becomes the device's: results, uncertain sends, the cursor, the pacing wait. */
export async function adopt(
  jobId: string,
  back: TakeBackResponse,
  list: readonly StoredRecipient[],
  then: 'queued' | 'paused',
) {
  const uncertain = new Map(back.uncertain.map((u) => [u.recipient_id, u]))
  await db.transaction('rw', jobs, recipients, chunks, async () => {
    const job = await jobs.get(jobId)
    if (!job) return
    // What this device knows beyond the server's record stays: a send it left uncertain stays uncertain (its
    // hand-over may never have reached the server), a result whose touch is still queued stays a result.
    const local = new Map(
      (
        await recipients
          .where('[jobId+order]')
          .between([jobId, Dexie.minKey], [jobId, Dexie.maxKey])
          .toArray()
      ).map((r) => [r.recipientId, r]),
    )
    for (const r of local.values())
      if (r.state === 'sending' && !uncertain.has(r.recipientId))
        uncertain.set(r.recipientId, {
          recipient_id: r.recipientId,
          attempt_at: r.attemptAt ?? job.createdAt,
          image_sent: !!r.imageSent,
          branded: !!r.branded,
        })
    const settled = (id: string) => {
      const mine = local.get(id)
      return mine?.state === 'sent' || mine?.state === 'rejected' ? mine : undefined
    }
    let reached = -1
    list.forEach((r, i) => {
      if (r.status || uncertain.has(r.recipient_id) || settled(r.recipient_id)) reached = i
    })
    const rows: RecipientRecord[] = []
    let sent = 0
    let rejected = 0
    for (let order = 0; order <= reached; order++) {
      const r = list[order]!
      const u = uncertain.get(r.recipient_id)
      const mine = settled(r.recipient_id)
      if (!r.status && mine) {
        if (mine.state === 'sent') sent++
        else rejected++
        rows.push({ ...mine, order })
        continue
      }
      const state: RecipientRecord['state'] =
        r.status === 'OK' ? 'sent' : r.status === 'NG' ? 'rejected' : u ? 'sending' : 'pending'
      if (state === 'sent') sent++
      if (state === 'rejected') rejected++
      rows.push({
        key: recipientKey(jobId, r.recipient_id),
        jobId,
        recipientId: r.recipient_id,
        name: r.name,
        conversationId: r.conversation_id,
        order,
        state,
        attempts: r.status || u ? 1 : 0,
        ...(u ? { attemptAt: u.attempt_at, imageSent: u.image_sent, branded: u.branded } : {}),
        ...(r.status === 'OK' ? { branded: r.sent_as_branded } : {}),
      })
    }
    await recipients.where('[jobId+order]').between([jobId, Dexie.minKey], [jobId, Dexie.maxKey]).delete()
    if (rows.length > 0) await recipients.bulkPut(rows)
    const ended = back.state === 'finished' || back.state === 'stopped' || back.state === 'cancelled'
    const next: Partial<JobRecord> = {
      serverLease: back.lease,
      cursor: reached + 1,
      sent,
      rejected,
      nextSendAt: Math.max(job.nextSendAt, back.next_send_at ?? 0),
      ...(back.attachment_id ? { attachmentId: back.attachment_id } : {}),
      state: ended
        ? back.state === 'finished'
          ? 'finished'
          : 'stopped'
        : then === 'paused' || job.state === 'paused'
          ? 'paused'
          : 'queued',
      serverStateSynced: ended,
    }
    await jobs.update(jobId, next)
  })
}

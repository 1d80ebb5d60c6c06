/** In-memory stand-ins for the product API and the bulk channel, and seeded jobs, for the bulk browser tests. */
import type { RecipientInput, ReserveBody, SubscriptionState, TouchBody } from '../../core/contracts/api.ts'
import { ApiError } from '../../core/api/request.ts'
import { db } from '../db/db.ts'
import { subscription } from '../../core/testing/session.ts'
import type { BulkMessage, BulkChannel } from '../bulk/protocol.ts'
import type {
  LeaseOutcome,
  OpenServerJob,
  SenderApi,
  ServerRecipient,
  TouchOutcome,
} from '../../core/bulk/ports.ts'
import {
  audienceOf,
  chunks,
  jobs,
  recipientKey,
  recipients,
  RECIPIENTS_NEXT_AT,
  writeJob,
  type AudienceMember,
  type JobRecord,
} from '../bulk/records.ts'

export const PAGE = '100'

export class FakeApi implements SenderApi {
  touches = new Map<string, TouchBody>()
  touchCalls = 0
  /** The next n touch calls fail as if offline. */
  failTouches = 0
  states: { jobId: string; state: string; reason?: string }[] = []
  serverRecipients = new Map<string, ServerRecipient[]>()
  open: OpenServerJob[] = []
  /** The server's lease per job: its epoch, who sends it, and the epochs of the reservations. */
  leases = new Map<string, { epoch: number; sender: 'device' | 'server' }>()
  reserved: { jobId: string; recipientId: string; epoch: number }[] = []
  constructor(public sub: SubscriptionState = subscription(1_000)) {}

  async lease(jobId: string, body: { epoch?: number | null }): Promise<LeaseOutcome> {
    const held = this.leases.get(jobId)
    if (held?.sender === 'server') return { kind: 'server' }
    const epoch = held && body.epoch === held.epoch ? held.epoch : (held?.epoch ?? 0) + 1
    this.leases.set(jobId, { epoch, sender: 'device' })
    return { kind: 'held', epoch, leaseMs: 30_000, uncertain: [] }
  }
  async reserve(jobId: string, body: ReserveBody): Promise<LeaseOutcome> {
    const held = this.leases.get(jobId)
    if (held?.sender === 'server') return { kind: 'server' }
    if (!held || held.epoch !== body.epoch) return { kind: 'elsewhere' }
    for (const r of body.recipients)
      this.reserved.push({ jobId, recipientId: r.recipient_id, epoch: body.epoch })
    return { kind: 'held', epoch: held.epoch, leaseMs: 30_000, uncertain: [] }
  }

  async touch(jobId: string, body: TouchBody): Promise<TouchOutcome> {
    this.touchCalls++
    if (this.failTouches > 0) {
      this.failTouches--
      throw new TypeError('Failed to fetch')
    }
    const key = `${jobId}:${body.recipient_id}`
    if (!this.touches.has(key)) {
      if (body.status === 'OK' && !body.sent_as_branded) {
        if (this.sub.available_messages <= 0 && !this.sub.use_branded_messages) return { kind: 'refused' }
        this.sub = { ...this.sub, available_messages: this.sub.available_messages - 1 }
      }
      this.touches.set(key, body)
    }
    return {
      kind: 'ok',
      response: { available_messages: this.sub.available_messages, subscription: this.sub },
    }
  }
  async setState(jobId: string, state: 'finished' | 'stopped', reason?: string) {
    this.states.push({ jobId, state, reason })
  }
  /** The recipient ids of every recipients call that reached the server, in order. */
  recipientCalls: { jobId: string; ids: string[] }[] = []
  /**
   * What the next recipients calls meet, in order: an answer (undefined), no answer (the call never reaches
   * the server), or a refusal with its status and Retry-After.
   */
  recipientFaults: (undefined | 'offline' | { status: number; retryAfterMs?: number })[] = []
  /** The route's limit, as the server keeps it: at most `max` calls in a window of a minute from its first. */
  recipientLimit?: { max: number; now: () => number }
  private window = { start: 0, calls: 0 }
  /** How many recipients calls met the limit (429). */
  limited = 0
  async putRecipients(jobId: string, list: RecipientInput[]) {
    const fault = this.recipientFaults.shift()
    if (fault === 'offline') throw new ApiError(0, undefined, 'Failed to fetch')
    if (fault) throw new ApiError(fault.status, null, `HTTP ${fault.status}`, fault.retryAfterMs)
    if (this.recipientLimit) {
      const now = this.recipientLimit.now()
      if (now >= this.window.start + 60_000) this.window = { start: now, calls: 0 }
      if (++this.window.calls > this.recipientLimit.max) {
        this.limited++
        throw new ApiError(429, null, 'Too Many Requests', this.window.start + 60_000 - now)
      }
    }
    this.recipientCalls.push({ jobId, ids: list.map((r) => r.recipient_id) })
    // As the server: appended in order, repeats ignored.
    const prev = this.serverRecipients.get(jobId) ?? []
    const known = new Set(prev.map((r) => r.recipient_id))
    const fresh: RecipientInput[] = []
    for (const r of list) {
      if (known.has(r.recipient_id)) continue
      known.add(r.recipient_id)
      fresh.push(r)
    }
    this.serverRecipients.set(jobId, [...prev, ...fresh.map((r) => ({ ...r, status: null }))])
    return { added: fresh.length, total: prev.length + fresh.length }
  }
  async listOpen() {
    return this.open
  }
  async listRecipients(jobId: string) {
    const list = (this.serverRecipients.get(jobId) ?? []).map((r) => {
      const t = this.touches.get(`${jobId}:${r.recipient_id}`)
      return { ...r, status: t ? t.status : null, sent_as_branded: t?.sent_as_branded ?? false }
    })
    return { data: list, next: null }
  }
}

export class MemoryChannel implements BulkChannel {
  messages: BulkMessage[] = []
  private listeners = new Set<(m: BulkMessage) => void>()
  post(m: BulkMessage) {
    this.messages.push(m)
    for (const l of this.listeners) l(m)
  }
  subscribe(l: (m: BulkMessage) => void) {
    this.listeners.add(l)
    return () => this.listeners.delete(l)
  }
}

export async function resetDb() {
  await Promise.all([
    db.bulkJobs.clear(),
    db.bulkRecipients.clear(),
    chunks.clear(),
    db.touchOutbox.clear(),
    db.meta.delete(RECIPIENTS_NEXT_AT),
  ])
}

/** A queued job of `PAGE` with nothing sent yet; `over` sets what a test cares about. */
export function jobRecord(over: Partial<JobRecord> = {}): JobRecord {
  return {
    id: 'job1',
    pageId: PAGE,
    pageName: 'Page',
    text: 'Hello',
    messagingType: 'RESPONSE',
    labels: ['all_labels'],
    total: 0,
    brandedFrom: -1,
    state: 'queued',
    createdAt: Date.now(),
    nextSendAt: 0,
    lease: 0,
    sent: 0,
    rejected: 0,
    skipped: 0,
    recipientsSynced: true,
    ...over,
    kind:
      over.kind ??
      (over.marketing ? 'marketing' : over.contentKind === 'optin_request' ? 'optin_request' : 'standard'),
  }
}

export async function seedJob(n: number, over: Partial<JobRecord> = {}): Promise<JobRecord> {
  const job = jobRecord({ total: n, ...over })
  const audience: AudienceMember[] = Array.from({ length: n }, (_, i) => ({
    recipientId: String(i + 1),
    name: `Person ${i + 1}`,
    conversationId: `c${i + 1}`,
  }))
  await writeJob(job, audience)
  return job
}

/** The state a crash after the write-ahead leaves: these recipients `sending`, the cursor past them. */
export async function recordSending(jobId: string, orders: number[], attemptAt: number) {
  const audience = await audienceOf(jobId)
  await recipients.bulkPut(
    orders.map((order) => ({
      key: recipientKey(jobId, audience[order]!.recipientId),
      jobId,
      ...audience[order]!,
      order,
      state: 'sending' as const,
      attempts: 1,
      attemptAt,
    })),
  )
  await jobs.update(jobId, { cursor: Math.max(...orders) + 1 })
}

/** In-memory stand-ins for the product API and the bulk channel, and seeded jobs, for the bulk browser tests. */
import type { RecipientInput, ReserveBody, SubscriptionState, TouchBody } from '../../core/contracts/api.ts'
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
  async putRecipients(jobId: string, list: RecipientInput[]) {
    const prev = this.serverRecipients.get(jobId) ?? []
    this.serverRecipients.set(jobId, [...prev, ...list.map((r) => ({ ...r, status: null }))])
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
  await Promise.all([db.bulkJobs.clear(), db.bulkRecipients.clear(), chunks.clear(), db.touchOutbox.clear()])
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

/**
 * The device's hold on a job's lease on the server (docs/architecture.md#a-lease-not-a-goodbye): taken when
 * the run starts (with the page token when the owner chose "keep sending"), renewed by a heartbeat, renewed
 * by each reservation, and checked before every send, which starts only with a safe margin of the lease left.
 * Lost (the server took the job after a lapse, another device holds it), the run sends nothing more.
 */
import { adopt } from '../device/bulk/handover.ts'
import { heartbeatEvery, LEASE_MS, maySend } from '../core/bulk/lease.ts'
import type { LeaseOutcome, ServerRecipient } from '../core/bulk/ports.ts'
import { jobs, type JobRecord, type RecipientRecord } from '../device/bulk/records.ts'
import { db } from '../device/db/db.ts'
import type { RunDeps } from './run-deps.ts'

const HOLDER = 'lease-holder'
let holderId: Promise<string> | undefined

/**
 * This browser profile's stable id as a lease holder, kept in its IndexedDB (not a secret: it only tells the
 * server that a new worker of the same profile, after a reload or a crash, may take its own lease back at once).
 */
export function profileHolder(): Promise<string> {
  holderId ??= db
    .transaction('rw', db.meta, async () => {
      const kept = (await db.meta.get(HOLDER))?.value
      if (kept) return kept
      const id = crypto.randomUUID()
      await db.meta.put({ key: HOLDER, value: id })
      return id
    })
    .catch((err: unknown) => {
      holderId = undefined
      throw err
    })
  return holderId
}

/**
 * Held, or why not: the server sends the job, another device holds it, it is gone, no answer came, or another
 * holder's lease still runs and may be a dead one's (a wiped profile, a killed browser): wait for it to lapse.
 */
export type Hold = 'held' | 'server' | 'elsewhere' | 'gone' | 'offline' | 'wait'

export class JobLease {
  private epoch: number | undefined
  private until = 0
  private renewedAt = 0
  private leaseMs = LEASE_MS
  private timer: ReturnType<typeof setInterval> | undefined
  private keepSending = false
  /** When taking the lease was first refused for another holder in this run. */
  private refusedSince: number | undefined
  /** Set once the lease is lost: the run ends at its next step. */
  lost: Exclude<Hold, 'held' | 'offline' | 'wait'> | undefined

  constructor(
    private readonly deps: RunDeps,
    private readonly jobId: string,
  ) {}

  /** The lease, held with a safe margin left: renewed (or taken) first when it is not. */
  async ensure(job: JobRecord): Promise<Hold> {
    if (this.lost) return this.lost
    const now = this.deps.now()
    if (
      this.epoch !== undefined &&
      maySend(this.until, now, this.leaseMs) &&
      now - this.renewedAt < heartbeatEvery(this.leaseMs)
    )
      return 'held'
    this.keepSending = !!job.keepSending
    const first = this.epoch === undefined
    const token = first && this.keepSending ? this.deps.pageToken(job.pageId) : undefined
    const asked = now
    let answer: LeaseOutcome
    try {
      answer = await this.deps.api.lease(this.jobId, {
        epoch: this.epoch ?? job.serverLease ?? null,
        holder: await profileHolder(),
        keep_sending: this.keepSending,
        ...(token ? { page_token: token } : {}),
      })
    } catch {
      return 'offline'
    }
    if (answer.kind === 'elsewhere' && first) {
      // A holder that no longer renews loses the lease within its length: until then, wait and ask again.
      this.refusedSince ??= asked
      if (asked - this.refusedSince <= this.leaseMs + heartbeatEvery(this.leaseMs)) return 'wait'
    }
    const hold = await this.accept(answer, asked, job)
    if (hold === 'held') this.beat()
    return hold
  }

  /** How long to wait before asking for the lease again. */
  retryMs(): number {
    return heartbeatEvery(this.leaseMs)
  }

  /**
   * The write-ahead on the server before `r` is sent: refused once the lease lapsed or moved on. A send then
   * starts only with a safe margin of the renewed lease left.
   */
  async reserve(job: JobRecord, r: RecipientRecord, branded: boolean): Promise<Hold> {
    if (this.lost) return this.lost
    if (this.epoch === undefined) return 'elsewhere'
    const asked = this.deps.now()
    let answer: LeaseOutcome
    try {
      answer = await this.deps.api.reserve(this.jobId, {
        epoch: this.epoch,
        recipients: [{ recipient_id: r.recipientId, branded, image_sent: !!r.imageSent }],
      })
    } catch {
      return 'offline'
    }
    const hold = await this.accept(answer, asked, job)
    if (hold !== 'held') return hold
    return maySend(this.until, this.deps.now(), this.leaseMs) ? 'held' : 'offline'
  }

  /** The run ends without the job ending (paused): the server is told not to carry it on. */
  async release(job: JobRecord): Promise<void> {
    this.stop()
    if (this.epoch === undefined || this.lost || !job.keepSending) return
    await this.deps.api.lease(this.jobId, { epoch: this.epoch, keep_sending: false }).catch(() => undefined)
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  private async accept(answer: LeaseOutcome, asked: number, job: JobRecord): Promise<Hold> {
    if (answer.kind !== 'held') {
      this.lost = answer.kind
      this.stop()
      return answer.kind
    }
    const moved = answer.epoch !== (job.serverLease ?? 0)
    this.epoch = answer.epoch
    this.leaseMs = answer.leaseMs
    this.until = asked + answer.leaseMs
    this.renewedAt = asked
    if (moved) {
      job.serverLease = answer.epoch
      await jobs.update(this.jobId, { serverLease: answer.epoch })
      // An earlier holder reserved sends it never reported: the server's record is adopted, and those are
      // reconciled against their conversations before anything is sent again.
      if (answer.uncertain.length > 0) await this.adoptServerRecord(answer)
    }
    return 'held'
  }

  private async adoptServerRecord(answer: Extract<LeaseOutcome, { kind: 'held' }>) {
    const list: ServerRecipient[] = []
    let after: string | undefined
    do {
      const page = await this.deps.api.listRecipients(this.jobId, after)
      list.push(...page.data)
      after = page.next ?? undefined
    } while (after)
    const back = {
      lease: answer.epoch,
      sender: 'device' as const,
      state: 'open',
      next_send_at: null,
      attachment_id: null,
      uncertain: answer.uncertain.map((u) => ({
        recipient_id: u.recipient_id,
        attempt_at: u.attempt_at,
        image_sent: u.image_sent ?? false,
        branded: u.branded ?? false,
      })),
    }
    await adopt(
      this.jobId,
      back,
      list.map((r) => ({ ...r, status: r.status ?? null, sent_as_branded: r.sent_as_branded ?? false })),
      'queued',
    )
  }

  /** The heartbeat: renews the lease every third of it while the run lasts. */
  private beat() {
    if (this.timer !== undefined) return
    this.timer = setInterval(() => {
      if (this.epoch === undefined || this.lost) return
      const asked = this.deps.now()
      this.deps.api
        .lease(this.jobId, { epoch: this.epoch, keep_sending: this.keepSending })
        .then(async (answer) => {
          if (answer.kind !== 'held') {
            this.lost = answer.kind
            this.stop()
            return
          }
          this.until = asked + answer.leaseMs
          this.renewedAt = asked
        })
        .catch(() => undefined)
    }, heartbeatEvery(this.leaseMs))
  }
}

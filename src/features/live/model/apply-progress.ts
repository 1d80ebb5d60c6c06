/**
 * A server-held job's progress into the device's job row, which its card reads. Only while the row says the
 * server holds the job (`on_server`): the lease is not touched, and an event that arrives after the device
 * took the job back changes nothing, nor does one read under an earlier lease than the device's last hand-over.
 * Counts only grow; an ended job takes the server's end.
 */
import type { BulkProgressEvent } from '../../../core/contracts/events.ts'
import { db, type BulkJob } from '../../../device/db/db.ts'

export type ServerProgress = Pick<BulkProgressEvent, 'sent' | 'rejected' | 'skipped' | 'total'> & {
  state: BulkProgressEvent['state'] | 'open'
  stopReason?: string | null
  marketing?: BulkProgressEvent['marketing']
  /** The job's lease when the server read it; absent from a record of an older server. */
  lease?: number | undefined
}

/**
 * Whether this device holds the job (it sends it, or keeps it paused): its own record is the card's truth, and
 * the job's progress events change nothing here. A job it handed to the server is not held.
 */
export async function heldHere(messageId: string): Promise<boolean> {
  const job = await db.bulkJobs.get(messageId)
  return !!job && job.state !== 'on_server'
}

export async function applyServerProgress(messageId: string, p: ServerProgress): Promise<void> {
  await db.transaction('rw', db.bulkJobs, async () => {
    const job = await db.bulkJobs.get(messageId)
    if (!job || job.state !== 'on_server') return
    // Read before this device's latest hand-over (a resume answered while the read was on its way): the job
    // has gone on since, and that read's end is not its end.
    if (p.lease !== undefined && job.serverLease !== undefined && p.lease < job.serverLease) return
    const ended = p.state === 'finished' || p.state === 'stopped'
    const next: Partial<BulkJob> = {
      sent: Math.max(job.sent, p.sent),
      rejected: Math.max(job.rejected, p.rejected),
      skipped: Math.max(job.skipped, p.skipped),
    }
    if (p.marketing) {
      const m = p.marketing
      next.marketing = {
        budgetKind: m.budget_kind,
        estimateMinor: m.estimate_minor,
        currency: m.currency,
        budgetMinor: m.budget_minor,
        // Counts and spend only grow: an older event never lowers them.
        sent: Math.max(job.marketing?.sent ?? 0, m.sent),
        spendMinor:
          m.spend_minor === null
            ? (job.marketing?.spendMinor ?? null)
            : Math.max(job.marketing?.spendMinor ?? 0, m.spend_minor),
      }
    }
    if (ended) {
      next.state = p.state as 'finished' | 'stopped'
      // The server recorded its own end: the device has nothing to tell it.
      next.serverStateSynced = true
      if (p.stopReason) next.stopReason = p.stopReason
    }
    await db.bulkJobs.update(messageId, next)
  })
}

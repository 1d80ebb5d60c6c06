/**
 * The job's lease as both sides keep it (docs/architecture.md#a-lease-not-a-goodbye): a device sends only
 * while it holds the lease, renews it with a heartbeat and never starts a send with less than a safe margin
 * left. The server grants it for `leaseMs` (JOB_LEASE_SECONDS); the heartbeat and the margin follow from it.
 * Pure.
 */

/** The lease's length unless the server says otherwise. */
export const LEASE_MS = 30_000

/** How often a holder renews the lease: three heartbeats per lease, so one lost request never lapses it. */
export function heartbeatEvery(leaseMs: number): number {
  return Math.max(500, Math.floor(leaseMs / 3))
}

/** A send starts only with at least this much of the lease left (a frozen tab must not send after a lapse). */
export function safeMargin(leaseMs: number): number {
  return Math.max(500, Math.floor(leaseMs / 3))
}

/** Whether a holder whose lease ends at `until` (its own clock) may start a send at `now`. */
export function maySend(until: number, now: number, leaseMs: number): boolean {
  return until - now >= safeMargin(leaseMs)
}

/**
 * The sender of a browser profile: it holds the `bulk-sender` Web Lock for as long as its tab lives, so
 * exactly one sender works at a time and another tab's sender takes over the moment this one goes away.
 */
import { bulkMessage, SENDER_LOCK } from '../device/bulk/protocol.ts'
import { claimLease, jobs, runnableJobs } from '../device/bulk/records.ts'
import { runJob, type RunDeps, type RunOutcome } from './run-job.ts'
import { rebuildMissingJobs } from './resume-server.ts'
import { flushTouches } from '../device/bulk/touch-outbox.ts'

/** With nothing to do the sender looks again this often, besides being woken by a new job. */
export const IDLE_POLL_MS = 5_000

export interface SenderControl {
  /** Resolves when the sender stops (the signal aborted or the lease was taken). */
  done: Promise<void>
}

export function startSender(base: RunDeps, signal?: AbortSignal, lockName = SENDER_LOCK): SenderControl {
  const deps: RunDeps = signal ? { ...base, signal } : base
  const done = navigator.locks
    .request(lockName, signal ? { signal } : {}, async () => {
      deps.channel.post(bulkMessage.lock(true))
      deps.announce?.(bulkMessage.lock(true))
      // In the background: a resumed local job starts sending without waiting for the server round trips.
      void settleServerStates(deps).catch((err: unknown) => console.warn('bulk sender could not settle', err))
      while (!signal?.aborted) {
        const list = await runnableJobs().catch(() => [])
        if (list.length === 0) {
          await deps.sleep(IDLE_POLL_MS)
          continue
        }
        let outcome: RunOutcome | undefined
        try {
          for (const job of list) {
            if (signal?.aborted) break
            const lease = await claimLease(job.id)
            if (lease === undefined) continue
            outcome = await runJob(deps, job.id, lease)
            if (outcome === 'lost') return
          }
        } catch (err) {
          // Storage failed outside a send (the database closed under us): pause, then read it again.
          console.warn('bulk sender paused after an error', err)
          await deps.sleep(IDLE_POLL_MS)
        }
      }
    })
    .then(() => undefined)
    .catch((err: unknown) => {
      if ((err as { name?: string })?.name !== 'AbortError') throw err
    })
  return { done }
}

/**
 * Touches and final states that did not reach the server before (offline, a closed tab), and jobs the
 * server knows but this browser lost.
 */
async function settleServerStates(deps: RunDeps) {
  await rebuildMissingJobs(deps.api, deps.now()).catch(() => undefined)
  const flushed = await flushTouches(deps.api).catch(() => undefined)
  if (flushed?.subscription) deps.setSubscription(flushed.subscription)
  const ended = await jobs.where('state').anyOf(['finished', 'stopped']).toArray()
  for (const job of ended) {
    if (job.serverStateSynced) continue
    try {
      await deps.api.setState(job.id, job.state as 'finished' | 'stopped', job.stopReason)
      await jobs.update(job.id, { serverStateSynced: true })
    } catch {
      // still unreachable; tried again next start
    }
  }
}

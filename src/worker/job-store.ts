/**
 * A bulk job in IndexedDB as the one sender (core/bulk/machine.ts) runs it on this device: the job's
 * row (its lease epoch, the persisted pacing wait), the recipients' state rows (the write-ahead `sending`, the
 * result with its queued touch in one transaction), each state change published to the tabs.
 */
import { Dexie } from 'dexie'
import { sendMode } from '../core/bulk/allowance.ts'
import type { JobStore, MachineJob } from '../core/bulk/machine.ts'
import { backToPending, recordResult, skipRest } from '../device/bulk/job-steps.ts'
import {
  firstInState,
  jobs,
  recipients,
  type JobRecord,
  type RecipientRecord,
} from '../device/bulk/records.ts'
import { claimNext, type ClaimMemory } from './claim.ts'
import { publish, setAndPublish } from './job-effects.ts'
import type { RunDeps, Streaks } from './run-deps.ts'

/** The job's row, and the phase the machine reads from its state. */
export type DeviceJob = JobRecord & Pick<MachineJob, 'phase'>

function phaseOf(state: JobRecord['state']): MachineJob['phase'] {
  switch (state) {
    case 'paused':
    case 'stopped':
    case 'finished':
      return state
    case 'on_server':
      return 'away'
    default:
      return 'open'
  }
}

const withPhase = (job: JobRecord): DeviceJob => ({ ...job, phase: phaseOf(job.state) })

export function deviceJobStore(
  deps: RunDeps,
  jobId: string,
  run: Streaks,
): JobStore<DeviceJob, RecipientRecord> {
  // Whether a recipient may be left `sending` (at the start, after any failure): only then is it looked for.
  let uncertain = true
  const memory: ClaimMemory = { retries: true }
  return {
    async read() {
      const job = await jobs.get(jobId)
      return job && withPhase(job)
    },

    async uncertain() {
      if (!uncertain) return undefined
      const recipient = await firstInState(jobId, 'sending')
      if (!recipient) uncertain = false
      return recipient && { recipient }
    },

    async claim(_job, epoch) {
      const claim = await claimNext(
        jobId,
        epoch,
        deps.now(),
        (order, fresh) =>
          sendMode(order, fresh.brandedFrom, deps.subscription(), fresh.brandedAuthorised ?? false),
        memory,
      )
      switch (claim.kind) {
        case 'stale':
          return { kind: 'again' }
        case 'stop':
          return { kind: 'stop' }
        case 'server_only':
          return { kind: 'mismatch' }
        case 'empty':
          if (!claim.sending) return { kind: 'done' }
          // A recipient is still uncertain: look at it on the next pass rather than finishing.
          uncertain = true
          return { kind: 'again' }
        case 'recipient':
          return { kind: 'recipient', recipient: claim.recipient, job: withPhase(claim.job) }
      }
    },

    async record(job, r, outcome, epoch, nextSendAt) {
      const recorded = await recordResult({
        job,
        recipient: r,
        ok: outcome.ok,
        branded: !!r.branded,
        ...(outcome.ok ? { messageId: outcome.messageId } : { error: outcome.error }),
        now: deps.now(),
        nextSendAt: nextSendAt ?? job.nextSendAt,
        acknowledged: run.acknowledged,
        lease: epoch,
      })
      if (recorded === 'stale') return 'stale'
      run.acknowledged.length = 0
      if (!recorded) return 'repeat'
      run.recorded = recorded
      return 'recorded'
    },

    async backToPending(_job, r, changes) {
      memory.retries = true
      await backToPending(r.key, changes)
    },

    async inFlight(_job, r) {
      const fresh = await recipients.get(r.key)
      return { sending: fresh?.state === 'sending', failures: fresh?.failures ?? 0 }
    },

    async wait(job, _epoch, at, state) {
      await setAndPublish(deps, job, state ?? job.state, { nextSendAt: at })
    },

    async imageWent(_job, r) {
      await recipients.update(r.key, { imageSent: true })
    },

    async attachment() {
      return (await jobs.get(jobId))?.attachmentId
    },

    async setAttachment(_job, attachmentId) {
      await jobs.update(jobId, { attachmentId })
    },

    async finish(job) {
      await setAndPublish(deps, job, 'finished')
    },

    async stop(job, reason, skip) {
      if (!skip) return setAndPublish(deps, job, 'stopped', { stopReason: reason })
      // The recipients left are skipped, visibly.
      await skipRest(jobId, reason)
      publish(deps, jobId)
    },

    forget() {
      uncertain = true
      memory.retries = true
      run.outboxDirty = true
    },
  }
}

/** Storage failed (a connection lost on wake): nothing is sent that cannot be recorded. */
export function isStorageError(err: unknown): boolean {
  return err instanceof Dexie.DexieError
}

/**
 * One job on this device (docs/architecture.md#a-bulk-job-end-to-end), run by the one sender both sides share
 * (core/bulk/machine.ts) against IndexedDB (job-store.ts). What is the device's own stays here: the
 * queued touches delivered to the server and the allowance they answer, the page token asked of the tabs,
 * the lease held over the network, the progress published to the tabs, and a marketing job left to the server.
 */
import { deviceSends } from '../core/bulk/kinds.ts'
import { runMachine, type MachineEnd, type MachinePorts, type Next } from '../core/bulk/machine.ts'
import { backoff, RETRY_BASE_MS, RETRY_MAX_MS } from '../core/bulk/pacer.ts'
import { bulkMessage } from '../device/bulk/protocol.ts'
import type { RecipientRecord } from '../device/bulk/records.ts'
import { uploadStep } from '../device/bulk/sync-recipients.ts'
import { deliverTouch, settleAcknowledged } from '../device/bulk/touch-outbox.ts'
import { applyFlush, flushAndApply, pauseOffline, publish, setAndPublish, tellServer } from './job-effects.ts'
import { deviceJobStore, isStorageError, type DeviceJob } from './job-store.ts'
import { JobLease, type Hold } from './lease.ts'
import type { RunDeps, RunOutcome, Streaks } from './run-deps.ts'
import { waitForToken } from './token-wait.ts'

export type { RunDeps, RunOutcome } from './run-deps.ts'

/** Why a device paused a job: its marketing recipients are sent by the server only. */
export const SERVER_ONLY = 'marketing:server_only'
/** Why a device paused a job: another device of the owner holds its lease. */
export const HELD_ELSEWHERE = 'held_elsewhere'

export async function runJob(deps: RunDeps, jobId: string, lease: number): Promise<RunOutcome> {
  const run: Streaks = {
    offline: 0,
    storage: 0,
    outboxDirty: true,
    tokenAsks: 0,
    tokenAskAt: 0,
    acknowledged: [],
  }
  const hold = new JobLease(deps, jobId)
  try {
    const end = await runMachine(ports(deps, jobId, run, hold), lease)
    return end.end === 'finished' || end.end === 'stopped' || end.end === 'lost' || end.end === 'gone'
      ? end.end
      : 'paused'
  } finally {
    hold.stop()
    await settleAcknowledged(run.acknowledged).catch(() => undefined)
  }
}

function ports(
  deps: RunDeps,
  jobId: string,
  run: Streaks,
  hold: JobLease,
): MachinePorts<DeviceJob, RecipientRecord> {
  return {
    store: deviceJobStore(deps, jobId, run),
    graph: deps.graph,
    now: deps.now,
    random: deps.random,
    sleep: deps.sleep,
    pacingScale: deps.pacingScale,
    settleMs: 0,
    aborted: () => !!deps.signal?.aborted,
    beforeRead: async () => {
      if (!run.outboxDirty) return
      await settleAcknowledged(run.acknowledged)
      run.outboxDirty = (await flushAndApply(deps, jobId)).pending
    },
    // Marketing messages are sent by the server only (the campaign and the subscriber tokens live there).
    admit: async (job) => (!deviceSends(job.kind) || job.marketing ? holdForServer(deps, job) : 'open'),
    token: async (job) => deps.pageToken(job.pageId),
    noToken: async (job) => {
      await waitForToken(deps, job, run)
      return undefined
    },
    // A device sends only while it holds the job's lease on the server.
    hold: {
      ensure: async (job) => {
        // The server gets the recipient list first, one paced call per step, resuming where it stopped.
        if (!job.recipientsSynced) {
          const upload = await uploadStep(deps.api, job.id, deps.now)
          if (upload.kind === 'failed') {
            await pauseOffline(deps, job, run)
            return undefined
          }
          if (upload.kind === 'wait') {
            run.offline = 0
            await deps.sleep(upload.ms)
            return undefined
          }
        }
        const held = await hold.ensure(job)
        if (held === 'wait') {
          await deps.sleep(hold.retryMs())
          return undefined
        }
        return held === 'held' ? held : leaseLost(deps, job, held, run)
      },
      // The write-ahead on the server too: a holder whose lease lapsed or moved on sends nothing.
      reserve: async (job, r) => {
        const reserved = await hold.reserve(job, r, !!r.branded)
        return reserved === 'held' ? reserved : leaseLost(deps, job, reserved, run)
      },
      release: (job) => hold.release(job),
    },
    recorded: async (job, _r, outcome) => {
      const recorded = run.recorded
      if (!outcome.ok || !recorded) return
      Object.assign(job, { sent: recorded.counts.sent, rejected: recorded.counts.rejected })
      deps.channel.post(bulkMessage.progress(job.id, 'running', recorded.counts))
      const flushed = await deliverTouch(deps.api, recorded.entry, undefined, run.acknowledged)
      applyFlush(deps, flushed)
      if (flushed.pending) run.outboxDirty = true
    },
    rejected: (job, r, reason, kind) => {
      deps.channel.post(bulkMessage.rejected(job.id, r.name, reason, kind))
      publish(deps, job.id)
    },
    failed: async (_job, _r, err) => {
      if (!isStorageError(err)) return 'policy'
      // Storage failed: a recipient left `sending` is reconciled on the next pass; the step is retried after a pause.
      console.warn('bulk sender storage error', err)
      run.storage++
      await deps.sleep(backoff(run.storage, RETRY_BASE_MS, RETRY_MAX_MS, deps.random))
      return undefined
    },
    // The recipient stays `sending`: it is reconciled before any retry. The `online` event wakes the sleep.
    offline: async (job, ms) => {
      await setAndPublish(deps, job, 'waiting_connection')
      await deps.sleep(ms)
    },
    tokenRefused: async (job) => {
      deps.dropPageToken(job.pageId)
      await setAndPublish(deps, job, 'needs_signin')
      return undefined
    },
    mismatch: (job) => holdForServer(deps, job),
    ending: () => settleAcknowledged(run.acknowledged),
    ended: async (job, how, reason) => {
      if (how === 'finished') await flushAndApply(deps, job.id)
      await tellServer(deps, job.id, how, reason)
    },
    stepped: (sent) => {
      run.offline = 0
      // A send went through with the token: the next missing token is asked for at once.
      if (sent) {
        run.tokenAsks = 0
        run.tokenAskAt = 0
      }
    },
  }
}

/** The lease is not held: wait for the connection, or end the run to whoever holds the job now. */
async function leaseLost(
  deps: RunDeps,
  job: DeviceJob,
  why: Exclude<Hold, 'held'>,
  run: Streaks,
): Promise<Next> {
  switch (why) {
    case 'wait':
      return undefined
    case 'offline':
      await pauseOffline(deps, job, run)
      return undefined
    case 'server':
      // The server took it (the lease lapsed): the card says so, and the owner may take it back.
      await setAndPublish(deps, job, 'on_server')
      return { end: 'paused' }
    case 'elsewhere':
      await setAndPublish(deps, job, 'paused', { stopReason: HELD_ELSEWHERE })
      return { end: 'paused' }
    case 'gone':
      await setAndPublish(deps, job, 'stopped', { stopReason: 'gone' })
      return { end: 'gone' }
  }
}

/**
 * A job with marketing recipients is the server's to send: this device pauses it (nothing is written for the
 * recipient) and the owner's start hands it over (`POST /messages/{id}/marketing`).
 */
async function holdForServer(deps: RunDeps, job: DeviceJob): Promise<MachineEnd> {
  await setAndPublish(deps, job, 'paused', { stopReason: SERVER_ONLY })
  return { end: 'paused' }
}

/** The side effects of a run: states written and published, the server told, touches flushed. */
import { backoff, RETRY_BASE_MS, RETRY_MAX_MS } from '../core/bulk/pacer.ts'
import { setJobState } from '../device/bulk/job-steps.ts'
import { bulkMessage } from '../device/bulk/protocol.ts'
import { jobs, type JobRecord } from '../device/bulk/records.ts'
import type { RunDeps, Streaks } from './run-deps.ts'
import { flushTouches, type FlushResult } from '../device/bulk/touch-outbox.ts'

export async function pauseOffline(deps: RunDeps, job: JobRecord, streaks: Streaks) {
  streaks.offline++
  await setAndPublish(deps, job, 'waiting_connection')
  // The `online` event wakes the sleep early.
  await deps.sleep(backoff(streaks.offline, RETRY_BASE_MS, RETRY_MAX_MS, deps.random))
}

export async function tellServer(
  deps: RunDeps,
  jobId: string,
  state: 'finished' | 'stopped',
  reason?: string,
) {
  try {
    await deps.api.setState(jobId, state, reason)
    await jobs.update(jobId, { serverStateSynced: true })
  } catch {
    // Retried when the sender next starts (see sender.ts).
  }
}

export async function flushAndApply(deps: RunDeps, jobId: string): Promise<FlushResult> {
  const flushed = await flushTouches(deps.api, jobId)
  applyFlush(deps, flushed)
  return flushed
}

export function applyFlush(deps: RunDeps, flushed: FlushResult) {
  if (flushed.subscription) {
    deps.setSubscription(flushed.subscription)
    deps.channel.post(bulkMessage.allowance(flushed.subscription))
  }
  const sub = deps.subscription()
  if (flushed.exhausted && sub) deps.setSubscription({ ...sub, available_messages: 0 })
}

export async function setAndPublish(
  deps: RunDeps,
  job: JobRecord,
  state: JobRecord['state'],
  extra: Parameters<typeof setJobState>[2] = {},
) {
  await setJobState(job.id, state, extra)
  job.state = state
  publish(deps, job.id)
}

export function publish(deps: Pick<RunDeps, 'channel'>, jobId: string) {
  void jobs.get(jobId).then((j) => {
    if (!j) return
    const counts = { sent: j.sent, rejected: j.rejected, skipped: j.skipped, total: j.total }
    deps.channel.post(bulkMessage.progress(j.id, j.state, counts, j.stopReason))
  })
}

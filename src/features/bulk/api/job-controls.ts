/** Pause, resume, cancel and close from any tab: Dexie is changed, then the sender is woken to re-read it. */
import { deleteBulkMessage, apiToken } from '../../../shared/api'
import { retryPageTokensNow } from '../../../shared/session'
import { createSenderApi } from '../../../worker/api-port.ts'
import { skipRest } from '../../../worker/job-steps.ts'
import { deleteJob, jobs, RUNNABLE_STATES } from '../../../worker/records.ts'
import { wakeSender } from '../sender-host.ts'

export async function pauseJob(id: string): Promise<void> {
  const job = await jobs.get(id)
  if (job && RUNNABLE_STATES.includes(job.state)) await jobs.update(id, { state: 'paused' })
  wakeSender()
}

export async function resumeJob(id: string): Promise<void> {
  const job = await jobs.get(id)
  if (job?.state === 'paused')
    await jobs.update(id, { state: 'queued', stopReason: undefined, nextSendAt: 0 })
  // The owner acted: a page token the accounts list could not give is asked for again at once.
  retryPageTokensNow()
  wakeSender()
}

export async function cancelJob(id: string): Promise<void> {
  await skipRest(id, 'cancelled')
  wakeSender()
  try {
    await createSenderApi(location.origin, () => apiToken() ?? '').setState(id, 'stopped', 'cancelled')
    await jobs.update(id, { serverStateSynced: true })
  } catch {
    // The sender tells the server when it next starts.
  }
}

/** The close (x): deletes the server record, then the local job (kept if the server cannot be reached). */
export async function closeJob(id: string): Promise<void> {
  await deleteBulkMessage(id)
  await deleteJob(id)
  wakeSender()
}

/**
 * The owner's controls on a job, as Dexie changes any tab can make: the sender re-reads the job after every
 * wait, so the caller only has to wake it.
 */
import { skipRest } from './job-steps.ts'
import { deleteJob, jobs, RUNNABLE_STATES } from './records.ts'

export { deleteJob, skipRest }

/** Pauses a job the sender would work on; a job already at rest is left as it is. */
export async function pauseRecord(id: string): Promise<void> {
  const job = await jobs.get(id)
  if (job && RUNNABLE_STATES.includes(job.state)) await jobs.update(id, { state: 'paused' })
}

/**
 * Puts a paused job back in the device's queue, without its stop reason or pacing wait. A marketing job is
 * never queued here: only the server's marketing sender resumes it (see resumeMarketingJob).
 */
export async function resumeRecord(id: string): Promise<void> {
  const job = await jobs.get(id)
  if (job?.state === 'paused' && job.kind !== 'marketing')
    await jobs.update(id, { state: 'queued', stopReason: undefined, nextSendAt: 0 })
}

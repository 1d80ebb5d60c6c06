/** Pause, resume, cancel and close from any tab: Dexie is changed, then the sender is woken to re-read it. */
import { deleteBulkMessage, apiToken } from '../../../shared/api'
import { retryPageTokensNow } from '../../../shared/session'
import { createSenderApi } from '../../../shared/bulk/api-port.ts'
import { deleteJob, pauseRecord, resumeRecord, skipRest } from '../../../shared/bulk/controls.ts'
import { jobs } from '../../../shared/bulk/records.ts'
import { wakeSender } from '../sender-host.ts'

export async function pauseJob(id: string): Promise<void> {
  await pauseRecord(id)
  wakeSender()
}

export async function resumeJob(id: string): Promise<void> {
  await resumeRecord(id)
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

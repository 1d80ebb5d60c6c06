/**
 * Notices when a bulk job is in progress (the moment there is something to lose), so the storage notice can
 * ask for persistent storage and write the eviction marker. It reads the jobs from Dexie, so it is loaded only
 * for a signed-in user.
 */
import { useEffect } from 'react'
import { useLiveQuery } from 'dexie-react-hooks'
import { db } from '../../../device/db/db.ts'

/** States in which a job still has recipients to send to. */
const ACTIVE_STATES = [
  'queued',
  'running',
  'paused',
  'waiting_connection',
  'rate_limited',
  'needs_signin',
] as const

/** Calls `keep` whenever jobs are active; what keeping means stays with the notice (one chunk, not two). */
export function KeepWhileSending({ keep }: { keep: () => void }) {
  const activeJobs = useLiveQuery(() => db.bulkJobs.where('state').anyOf(ACTIVE_STATES).count(), [], 0)

  useEffect(() => {
    if (activeJobs === 0) return
    keep()
  }, [activeJobs, keep])

  return null
}

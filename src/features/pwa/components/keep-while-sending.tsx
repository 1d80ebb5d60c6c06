/**
 * Asks for persistent storage and writes the eviction marker once a bulk job is in progress (the moment there
 * is something to lose). It reads the jobs from Dexie, so it is loaded only for a signed-in user.
 */
import { useEffect } from 'react'
import { useLiveQuery } from 'dexie-react-hooks'
import { db } from '../../../shared/db/db.ts'
import { requestPersistentStorage } from '../model/storage.ts'
import { writeStorageMarker } from '../model/eviction.ts'

/** States in which a job still has recipients to send to. */
const ACTIVE_STATES = [
  'queued',
  'running',
  'paused',
  'waiting_connection',
  'rate_limited',
  'needs_signin',
] as const

export function KeepWhileSending() {
  const activeJobs = useLiveQuery(() => db.bulkJobs.where('state').anyOf(ACTIVE_STATES).count(), [], 0)

  useEffect(() => {
    if (activeJobs === 0) return
    void requestPersistentStorage()
    void writeStorageMarker().catch(() => undefined)
  }, [activeJobs])

  return null
}

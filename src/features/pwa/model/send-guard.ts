/**
 * An update reloads the page, which would stop the paced sender mid-job; so a reload waits while any bulk job
 * is in the 'running' state (Dexie is the truth about jobs).
 */
import { liveQuery } from 'dexie'
import { db } from '../../../device/db/db.ts'

export async function isBulkSending(): Promise<boolean> {
  return (await db.bulkJobs.where('state').equals('running').count()) > 0
}

/** Resolves when no job is running any more (at once when none is). */
export function whenNotSending(): Promise<void> {
  return new Promise((resolve, reject) => {
    const sub = liveQuery(() => db.bulkJobs.where('state').equals('running').count()).subscribe({
      next(count) {
        if (count > 0) return
        // Unsubscribing inside next() is safe in Dexie; defer it so `sub` is assigned on the first emission.
        queueMicrotask(() => sub.unsubscribe())
        resolve()
      },
      error: reject,
    })
  })
}

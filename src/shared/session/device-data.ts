/**
 * What one user leaves on the device: every table of the local database, the offline-start snapshot and the
 * service worker's picture caches.
 *
 * Signing out wipes all of it rather than keeping it per user: data kept for a user who left is data a
 * later user of the same browser could reach (devtools, a bug in a filter), and a shared phone is the common
 * case for the page owners this is built for. The cost is the work not yet on the server: replies still in
 * the outbox are lost, and a bulk send stops here; the server keeps its record and recipient list, so the
 * owner resumes it from its card after signing in again (src/worker/resume-server.ts). The sign-out dialog
 * says so before anything is lost.
 *
 * As a second guard the device remembers whose data it holds (`meta.owner`, a facebook id): a sign-in by
 * anyone else wipes it before anything is shown, whatever way the previous user left.
 */
import { USER_CACHES } from '../../core/constants/caches.ts'
import { clearSnapshot } from './snapshot.ts'
import { db } from '../../device/db/db.ts'

const OWNER = 'owner'

async function clearTables(): Promise<void> {
  await db.transaction('rw', db.tables, () => Promise.all(db.tables.map((table) => table.clear())))
}

async function deleteCaches(): Promise<void> {
  if (typeof caches === 'undefined') return
  await Promise.all(USER_CACHES.map((name) => caches.delete(name).catch(() => false)))
}

/** Deletes everything the signed-in user left on this device. */
export async function wipeDeviceData(): Promise<void> {
  clearSnapshot()
  await Promise.all([clearTables(), deleteCaches()])
}

async function holdsData(): Promise<boolean> {
  for (const table of db.tables) if (table !== db.meta && (await table.count()) > 0) return true
  return false
}

/**
 * Makes the device's data `owner`'s before it is shown: data of anyone else is wiped first. Data written
 * before the owner was recorded is kept only when the last signed-in user (`previous`, from the offline
 * snapshot) is the same person. Resolves true when something was wiped.
 */
export async function claimDevice(owner: string, previous?: string): Promise<boolean> {
  const wiped = await db.transaction('rw', db.tables, async () => {
    const recorded = (await db.meta.get(OWNER))?.value
    if (recorded === owner) return false
    const keep = recorded === undefined && (previous === owner || !(await holdsData()))
    if (!keep) await Promise.all(db.tables.map((table) => table.clear()))
    await db.meta.put({ key: OWNER, value: owner })
    return !keep
  })
  if (wiped) await deleteCaches()
  return wiped
}

export interface UnsentWork {
  /** Replies in the outbox not yet accepted by the network: kept only on this device. */
  replies: number
  /** Bulk sends not finished nor stopped. */
  bulkJobs: number
  /** Of those, the ones whose recipient list has not reached the server yet (they cannot be resumed). */
  bulkJobsNotOnServer: number
}

export async function unsentWork(): Promise<UnsentWork> {
  const [replies, open] = await Promise.all([
    db.replyOutbox.filter((r) => r.state !== 'sent').count(),
    db.bulkJobs.filter((j) => j.state !== 'finished' && j.state !== 'stopped').toArray(),
  ])
  const notOnServer = open.filter((j) => !(j as { recipientsSynced?: boolean }).recipientsSynced)
  return { replies, bulkJobs: open.length, bulkJobsNotOnServer: notOnServer.length }
}

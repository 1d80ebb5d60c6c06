/**
 * One writer per embedded database: PGlite has no locking of its own, so two processes on one DATA_DIR
 * would hand out the same ids and lose each other's writes. The folder is held by `pglite.lock`, created
 * with O_EXCL and holding the pid and host of its owner; it goes on close and on process exit. A lock whose
 * pid no longer runs on this host (a killed process) is taken over, as is one naming this process's own pid
 * that this process does not hold (a restart that was given the same pid, as pid 1 in a container is). A lock
 * from another host is kept: whether its process runs cannot be known from here.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { ConfigError } from '../config.ts'

export const LOCK_FILE = 'pglite.lock'

export interface LockHolder {
  pid: number
  host: string
}

/** Another process holds the folder: a start-up error reported as one sentence, like a bad configuration. */
export class DataDirLockedError extends ConfigError {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const elsewhere =
      holder.host === hostname() ? '' : ` (if it no longer runs, delete ${join(dataDir, LOCK_FILE)})`
    super(
      `DATA_DIR ${dataDir} is in use by another Pagecast process (pid ${holder.pid} on ${holder.host}): ` +
        `stop it first${elsewhere}, or give this one its own DATA_DIR or a DATABASE_URL.`,
    )
  }
}

/** Lock files this process holds. */
const held = new Set<string>()

export interface DataDirLock {
  release(): void
}

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch (err) {
    if (errno(err) === 'ENOENT') return undefined
    throw err
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockHolder>
    return typeof v.pid === 'number' && typeof v.host === 'string' ? { pid: v.pid, host: v.host } : undefined
  } catch {
    return undefined
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it runs, as another user.
    return errno(err) === 'EPERM'
  }
}

/**
 * Moves a stale lock out of the way. Renaming is atomic, so of several processes taking over at once one
 * wins; one that finds it has moved a fresh lock (not the stale text it judged) puts it back.
 */
function removeStale(path: string, staleText: string): void {
  const aside = `${path}.${process.pid}.${Date.now()}`
  try {
    renameSync(path, aside)
  } catch (err) {
    if (errno(err) === 'ENOENT') return
    throw err
  }
  if (readText(aside) !== staleText) {
    try {
      linkSync(aside, path)
    } catch {
      // A third process has created a lock meanwhile: its lock stands.
    }
  }
  unlinkSync(aside)
}

function create(path: string, text: string): boolean {
  let fd: number
  try {
    fd = openSync(path, 'wx')
  } catch (err) {
    if (errno(err) === 'EEXIST') return false
    throw err
  }
  try {
    writeSync(fd, text)
  } finally {
    closeSync(fd)
  }
  return true
}

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const dir = resolve(dataDir)
  const path = join(dir, LOCK_FILE)
  const me: LockHolder = { pid: process.pid, host: hostname() }
  const text = JSON.stringify({ ...me, since: new Date().toISOString() })
  for (let attempt = 0; !create(path, text); attempt++) {
    const found = readText(path)
    if (found === undefined) continue
    const holder = parseHolder(found)
    const live =
      holder && (holder.host !== me.host || (holder.pid === me.pid ? held.has(path) : running(holder.pid)))
    if (live || attempt > 3) throw new DataDirLockedError(dir, holder ?? { pid: 0, host: 'unknown' })
    // An unreadable lock may be one being written this instant: it is stale only if it stays unreadable.
    if (!holder && attempt === 0) await sleep(200)
    else removeStale(path, found)
  }
  held.add(path)
  const release = () => {
    process.off('exit', release)
    held.delete(path)
    // Only our own lock: never one a later owner created after a takeover.
    if (readText(path) === text) unlinkSync(path)
  }
  process.on('exit', release)
  return { release }
}

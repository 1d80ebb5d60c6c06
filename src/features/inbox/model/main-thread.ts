/**
 * Work the inbox does in the background (the walk's writes, the cache's reads) is cut into short pieces that
 * give the main thread back between them, so a tap or a keystroke never waits behind a long task.
 */
import { Dexie } from 'dexie'
import { db } from '../../../device/db/db.ts'
import { ownTask } from '../../../core/network/own-task.ts'

/** Gives the main thread back: the browser handles waiting input and paints before the next piece. */
export function yieldToMain(): Promise<void> {
  return ownTask() ?? new Promise((resolve) => setTimeout(resolve, 0))
}

export interface Watch<T> {
  next: (value: T) => void
  error: (err: unknown) => void
}

/**
 * The rows written to each table since the last read, by primary key; undefined when that is not known
 * (the first read, a range deleted or cleared): then anything may have changed.
 */
export type Changes = ReadonlyMap<string, ReadonlySet<string>> | undefined

/** The keys of `table` written since the last read (none when only other tables were), or undefined: any. */
export function writtenKeys(changes: Changes, table: string): ReadonlySet<string> | undefined {
  return changes ? (changes.get(table) ?? new Set<string>()) : undefined
}

/** A node of the key ranges Dexie reports as written (its RangeSet, or a copy of one from another tab). */
interface KeyRanges {
  from?: unknown
  to?: unknown
  l?: KeyRanges
  r?: KeyRanges
}

/** The single keys of `ranges`, or undefined when it holds a range wider than one key. */
function singleKeys(ranges: KeyRanges | undefined, into: Set<string>): boolean {
  if (!ranges || !('from' in ranges)) return true
  if (typeof ranges.from !== 'string' || ranges.from !== ranges.to) return false
  into.add(ranges.from)
  return singleKeys(ranges.l, into) && singleKeys(ranges.r, into)
}

/**
 * Reads `read` now, and again after changes to any of `tables` (by this tab or another), at most once every
 * `gapMs`: a burst of writes (a page of the walk stored in pieces, several live messages) is read once after
 * it, not once per write. `read` is told which rows were written since its last read, so it can read only
 * those. Returns what stops it.
 */
export function watchTables<T>(
  tables: readonly string[],
  read: (changes: Changes) => Promise<T>,
  gapMs: number,
  watch: Watch<T>,
): () => void {
  const prefixes = new Map(tables.map((t) => [`idb://${db.name}/${t}/`, t]))
  let stopped = false
  let reading = false
  let dirty = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastRead = -Infinity
  /** What was written since the last read began (undefined: anything). */
  let pending: Map<string, Set<string>> | undefined
  const run = async () => {
    timer = undefined
    reading = true
    dirty = false
    const changes = pending
    pending = new Map()
    try {
      const value = await read(changes)
      if (!stopped) watch.next(value)
    } catch (err) {
      // Read again in full next time: what this read missed is not known.
      pending = undefined
      if (!stopped) watch.error(err)
    } finally {
      reading = false
      lastRead = performance.now()
      if (dirty) schedule()
    }
  }
  function schedule() {
    dirty = true
    if (stopped || reading || timer !== undefined) return
    timer = setTimeout(() => void run(), Math.max(0, lastRead + gapMs - performance.now()))
  }
  const changed = (observed: Record<string, unknown>) => {
    let touched = false
    for (const [part, ranges] of Object.entries(observed)) {
      for (const [prefix, table] of prefixes) {
        if (!part.startsWith(prefix)) continue
        touched = true
        // The table's primary keys are the part without an index name; index parts name the same rows.
        if (part !== prefix || !pending) continue
        const keys = pending.get(table) ?? new Set<string>()
        pending.set(table, keys)
        if (!singleKeys(ranges as KeyRanges, keys)) pending = undefined
      }
    }
    if (touched) schedule()
  }
  Dexie.on('storagemutated', changed)
  void run()
  return () => {
    stopped = true
    clearTimeout(timer)
    Dexie.on('storagemutated').unsubscribe(changed)
  }
}

/**
 * Work the inbox does in the background (the walk's writes, the cache's reads) is cut into short pieces that
 * give the main thread back between them, so a tap or a keystroke never waits behind a long task.
 */
import { Dexie } from 'dexie'
import { db } from '../../../device/db/db.ts'

interface Scheduler {
  yield?: () => Promise<void>
}

/** Gives the main thread back: the browser handles waiting input and paints before the next piece. */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler
  if (scheduler?.yield) return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}

export interface Watch<T> {
  next: (value: T) => void
  error: (err: unknown) => void
}

/**
 * Reads `read` now, and again after changes to any of `tables` (by this tab or another), at most once every
 * `gapMs`: a burst of writes (a page of the walk stored in pieces, several live messages) is read once after
 * it, not once per write. Returns what stops it.
 */
export function watchTables<T>(
  tables: readonly string[],
  read: () => Promise<T>,
  gapMs: number,
  watch: Watch<T>,
): () => void {
  const parts = tables.map((t) => `idb://${db.name}/${t}/`)
  let stopped = false
  let reading = false
  let dirty = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastRead = -Infinity
  const run = async () => {
    timer = undefined
    reading = true
    dirty = false
    try {
      const value = await read()
      if (!stopped) watch.next(value)
    } catch (err) {
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
    if (Object.keys(observed).some((key) => parts.some((p) => key.startsWith(p)))) schedule()
  }
  Dexie.on('storagemutated', changed)
  void run()
  return () => {
    stopped = true
    clearTimeout(timer)
    Dexie.on('storagemutated').unsubscribe(changed)
  }
}

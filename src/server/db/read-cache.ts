/**
 * Short-lived copies of hot reads (the caller's session, their subscription), so a busy client does not cost
 * a query per request. A copy is used only while (a) no write to a table it was read from has gone through
 * this instance's store since the read began (so a logout, a revoked session or a spend here is seen at
 * once, and a read that overlapped a write is never kept), and (b) it is younger than `ttlMs`: what another
 * instance (or the terms CLI) writes is seen within that time.
 */
import type { WriteLog } from './write-watch.ts'

/** How long a cached read may stand for the store: a revoke on another instance takes effect within this. */
export const READ_CACHE_MS = 2_000
/** Entries kept at most; the oldest are dropped first. */
const MAX_ENTRIES = 10_000

interface Entry<V> {
  value: V
  version: number
  at: number
}

export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>()

  constructor(
    private readonly log: WriteLog,
    /** The tables the value is read from (and any table whose deletion cascades into them). */
    private readonly tables: readonly string[],
    private readonly ttlMs = READ_CACHE_MS,
  ) {}

  /** The cached value of `key`, or `load()`'s (kept, unless undefined, when nothing was written meanwhile). */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const version = this.log.version(this.tables)
    const now = Date.now()
    const hit = this.entries.get(key)
    if (hit && hit.version === version && now - hit.at < this.ttlMs) return hit.value
    if (hit) this.entries.delete(key)
    const value = await load()
    if (value !== undefined && this.log.version(this.tables) === version) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!)
      this.entries.set(key, { value, version, at: now })
    }
    return value
  }

  forget(key: string): void {
    this.entries.delete(key)
  }
}

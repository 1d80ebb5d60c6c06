/**
 * Counts the writes that go through a store, per table written, so a cached read can tell whether anything
 * it was read from may have changed since (see `read-cache.ts`). A statement's written tables are taken from
 * its text (INSERT INTO, UPDATE, DELETE FROM, ...; cascades are followed by naming the parent table in the
 * cache's list); a statement whose targets cannot be named, and every script (`exec`), counts as a write of
 * every table. A write is counted when it has completed, and those of a transaction once more when it ends,
 * so a read that overlapped a write is never kept.
 */
import type { Queryable, Store } from './store.ts'

const TARGET =
  /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?|ALTER\s+TABLE|DROP\s+TABLE|COPY)\s+(?:ONLY\s+)?(?:IF\s+EXISTS\s+)?"?(\w+)/gi
const READ = /^\s*(?:SELECT|WITH)\b/i

/** The tables a statement writes (lowercase; null: it cannot be told, so every table), once per statement text. */
const targetsOf = new Map<string, string[] | null>()
/** Statement texts are the code's own, a bounded set; a text built per call is not kept beyond this many. */
const TARGETS_KEPT = 2_000

function targets(sql: string): string[] | null {
  let found = targetsOf.get(sql)
  if (found !== undefined) return found
  const named = [...sql.matchAll(TARGET)].map((m) => m[1]!.toLowerCase())
  found = named.length || READ.test(sql) ? named : null
  if (targetsOf.size < TARGETS_KEPT) targetsOf.set(sql, found)
  return found
}

export class WriteLog {
  private all = 0
  private readonly tables = new Map<string, number>()

  /** A number that changes whenever one of `tables` may have been written. */
  version(tables: readonly string[]): number {
    let v = this.all
    for (const t of tables) v += this.tables.get(t) ?? 0
    return v
  }

  /** Counts the statement `sql` as written (after it completed). */
  note(sql: string): void {
    const tables = targets(sql)
    if (!tables) this.all++
    else for (const table of tables) this.tables.set(table, (this.tables.get(table) ?? 0) + 1)
  }

  everything(): void {
    this.all++
  }
}

function watched(db: Queryable, log: WriteLog, seen?: string[]): Queryable {
  return {
    async query<T extends object>(sql: string, params?: Parameters<Queryable['query']>[1]) {
      try {
        return await db.query<T>(sql, params)
      } finally {
        log.note(sql)
        seen?.push(sql)
      }
    },
    async exec(sql: string) {
      try {
        await db.exec(sql)
      } finally {
        log.everything()
        seen?.push('')
      }
    },
  }
}

/** The same store, with every write it carries counted in the returned log. */
export function watchWrites(store: Store): { store: Store; log: WriteLog } {
  const log = new WriteLog()
  const top = watched(store, log)
  const inside =
    <T>(run: (fn: (db: Queryable) => Promise<T>) => Promise<T>) =>
    async (fn: (db: Queryable) => Promise<T>): Promise<T> => {
      const seen: string[] = []
      try {
        return await run((db) => fn(watched(db, log, seen)))
      } finally {
        for (const sql of seen) {
          if (sql) log.note(sql)
          else log.everything()
        }
      }
    }
  return {
    log,
    store: {
      kind: store.kind,
      query: top.query,
      exec: top.exec,
      transaction: <T>(fn: (tx: Queryable) => Promise<T>) => inside<T>((f) => store.transaction(f))(fn),
      session: <T>(fn: (db: Queryable) => Promise<T>) => inside<T>((f) => store.session(f))(fn),
      listen: (channel, onNotify, onResume) => store.listen(channel, onNotify, onResume),
      ...(store.dropListener ? { dropListener: () => store.dropListener!() } : {}),
      close: () => store.close(),
    },
  }
}

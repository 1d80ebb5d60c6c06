/**
 * The embedded store: PGlite in-process, files under DATA_DIR (or in memory for `memory://`). A folder has
 * one writer: opening it takes its lock (./data-dir-lock.ts), closing the store gives it back.
 */
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { PGlite, type ParserOptions } from '@electric-sql/pglite'
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts'
import type { Queryable, SqlParam, Store } from './store-interface.ts'

interface PgliteLike {
  query(sql: string, params: SqlParam[]): Promise<{ rows: unknown[] }>
  exec(sql: string): Promise<unknown>
}

function wrap(db: PgliteLike): Queryable {
  return {
    async exec(sql: string) {
      await db.exec(sql)
    },
    async query<T extends object>(sql: string, params: readonly SqlParam[] = []) {
      const result = await db.query(sql, [...params])
      return result.rows as T[]
    },
  }
}

/**
 * The empty database cluster of this process's first in-memory store, kept as a copy: creating PostgreSQL
 * (its initdb) costs seconds of CPU, loading the copy a fraction of that. The tests open many in-memory
 * stores in one process.
 */
let emptyCluster: Promise<Blob> | undefined

async function inMemory(parsers: ParserOptions): Promise<PGlite> {
  const copy = await emptyCluster?.catch(() => undefined)
  if (copy) return new PGlite('memory://', { parsers, loadDataDir: copy })
  const db = new PGlite('memory://', { parsers })
  await db.waitReady
  emptyCluster ??= db.dumpDataDir('none')
  await emptyCluster.catch(() => undefined)
  return db
}

export async function openPgliteStore(dataDir: string): Promise<Store> {
  let location: string | undefined
  let lock: DataDirLock | undefined
  if (!dataDir.startsWith('memory://')) {
    location = resolve(dataDir, 'pglite')
    mkdirSync(location, { recursive: true })
    lock = await lockDataDir(dataDir)
  }
  // Counts and ids are BIGINT / NUMERIC in SQL and plain numbers in JS, on both stores.
  const parsers = { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) }
  let db: PGlite
  try {
    db = location ? new PGlite(location, { parsers }) : await inMemory(parsers)
    await db.waitReady
  } catch (err) {
    lock?.release()
    throw err
  }
  const top = wrap(db)
  return {
    kind: 'pglite',
    query: top.query,
    exec: top.exec,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    // PGlite is one connection already.
    session: (fn) => fn(top),
    // PGlite delivers the notifications of its one connection, so every writer in this process is heard.
    listen: async (channel, onNotify) => {
      const stop = await db.listen(channel, onNotify)
      return async () => {
        if (!db.closed) await stop()
      }
    },
    close: async () => {
      try {
        await db.close()
      } finally {
        lock?.release()
      }
    },
  }
}

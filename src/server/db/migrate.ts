/**
 * Migrations run at start, in name order, each once (recorded in `schema_migrations`). A session-level
 * advisory lock serialises instances starting together against one PostgreSQL server.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Queryable, Store } from './store.ts'

const here = dirname(fileURLToPath(import.meta.url))
const MIGRATIONS_DIR = join(here, 'migrations')
export const INITIAL_TERMS_FILE = join(here, '..', 'terms', 'initial-terms.md')
/** Any fixed 64-bit number; it names the lock, so every instance must use the same one. */
const MIGRATION_LOCK_KEY = 7_305_202_611

interface Migration {
  name: string
  run(db: Queryable): Promise<void>
}

function migrations(): Migration[] {
  const sql: Migration[] = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => ({
      name: f.replace(/\.sql$/, ''),
      run: async (db) => {
        await db.exec(readFileSync(join(MIGRATIONS_DIR, f), 'utf8'))
      },
    }))
  const seedTerms: Migration = {
    name: '001_seed_terms',
    run: async (db) => {
      await db.query('INSERT INTO terms (content) VALUES ($1)', [readFileSync(INITIAL_TERMS_FILE, 'utf8')])
    },
  }
  return [...sql, seedTerms].sort((a, b) => a.name.localeCompare(b.name))
}

export async function migrate(store: Store): Promise<string[]> {
  return store.session(async (db) => {
    await db.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    try {
      await db.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
      )
      const done = new Set(
        (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
      )
      const applied: string[] = []
      for (const m of migrations()) {
        if (done.has(m.name)) continue
        await db.query('BEGIN')
        try {
          await m.run(db)
          await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name])
          await db.query('COMMIT')
        } catch (err) {
          await db.query('ROLLBACK')
          throw err
        }
        applied.push(m.name)
      }
      return applied
    } finally {
      await db.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
    }
  })
}

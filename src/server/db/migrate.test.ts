import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TEST_DATABASE_URL, createTestDatabase } from '../testing/harness.ts'
import { migrate } from './migrate.ts'
import { openStore } from './store.ts'

/** Every migration, in the order they run. */
const ALL_MIGRATIONS = [
  '001_init',
  '001_seed_terms',
  '002_session_activity',
  '003_rate_limits_and_uploads',
  '004_saved_replies',
  '005_webhook_events',
  '006_push',
  '007_server_jobs',
  '008_marketing',
  '009_marketing_jobs',
  '010_recipient_failures',
  '011_optin_request_messages',
  '012_recipients_listed',
  '013_affiliates',
  '014_page_binding_checks',
  '015_job_kind',
  '016_job_lease',
  '017_send_history',
  '018_conversation_states',
  '019_audience_labels',
  '020_utility_jobs',
  '021_lease_holder',
  '022_recipient_position',
  '023_page_pacing',
  '024_done_undo',
]

// Each test starts the embedded database more than once: on a busy machine one start takes tens of seconds.
describe('migrations on PGlite', { timeout: 120_000 }, () => {
  it('run once, seed the first terms, and survive a restart on the same data folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagecast-migrate-'))
    try {
      const first = await openStore({ dataDir: dir })
      expect(await migrate(first)).toEqual(ALL_MIGRATIONS)
      await first.query("INSERT INTO users (facebook_id, name) VALUES ('1', 'Kept')")
      await first.close()
      const second = await openStore({ dataDir: dir })
      expect(await migrate(second)).toEqual([])
      expect(await second.query('SELECT name FROM users')).toEqual([{ name: 'Kept' }])
      expect(await second.query('SELECT count(*)::int AS n FROM terms')).toEqual([{ n: 1 }])
      await second.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('roll a failing transaction back entirely', async () => {
    const store = await openStore({ dataDir: 'memory://' })
    await migrate(store)
    await expect(
      store.transaction(async (tx) => {
        await tx.query("INSERT INTO users (facebook_id, name) VALUES ('2', 'Gone')")
        await tx.query('UPDATE subscriptions SET addons_messages = -1')
        await tx.query("INSERT INTO users (facebook_id, name) VALUES ('2', 'Duplicate')")
      }),
    ).rejects.toThrow()
    expect(await store.query("SELECT * FROM users WHERE facebook_id = '2'")).toEqual([])
    await store.close()
  })
})

describe.skipIf(!TEST_DATABASE_URL)(
  TEST_DATABASE_URL
    ? 'migrations on PostgreSQL'
    : 'migrations: PostgreSQL: skipped (TEST_DATABASE_URL not set)',
  () => {
    it('are applied exactly once when several instances start at the same moment', async () => {
      const db = await createTestDatabase(TEST_DATABASE_URL!)
      try {
        const stores = await Promise.all(
          Array.from({ length: 4 }, () => openStore({ dataDir: 'unused', databaseUrl: db.url })),
        )
        const applied = await Promise.all(stores.map((s) => migrate(s)))
        expect(applied.flat().sort()).toEqual(ALL_MIGRATIONS)
        expect(await stores[0]!.query('SELECT count(*)::int AS n FROM terms')).toEqual([{ n: 1 }])
        await Promise.all(stores.map((s) => s.close()))
      } finally {
        await db.drop()
      }
    })
  },
)

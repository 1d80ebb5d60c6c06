/**
 * One store interface over PGlite (embedded, the default) and a PostgreSQL server (`DATABASE_URL`). Both speak
 * the same SQL dialect, so every query and migration is written once.
 */
import type { Store } from './store-interface.ts'

export type { Queryable, SqlParam, Store } from './store-interface.ts'

export interface StoreOptions {
  dataDir: string
  databaseUrl?: string | undefined
}

export async function openStore({ dataDir, databaseUrl }: StoreOptions): Promise<Store> {
  if (databaseUrl) {
    const { openPostgresStore } = await import('./pg-store.ts')
    return openPostgresStore(databaseUrl)
  }
  const { openPgliteStore } = await import('./pglite-store.ts')
  return openPgliteStore(dataDir)
}

/**
 * Once per end-to-end run: a data folder with the embedded database created and migrated, as a stack leaves it
 * before it serves, which every stack's folder starts as a copy of (`TEMPLATE_DATA_DIR` in ./stack.ts). It is
 * removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../../src/server/db/migrate.ts'
import { openStore } from '../../../src/server/db/store.ts'
import { TEMPLATE_DATA_DIR } from './stack.ts'

export default async function globalSetup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'pagecast-e2e-template-'))
  const store = await openStore({ dataDir: dir })
  try {
    await migrate(store)
  } finally {
    await store.close()
  }
  process.env[TEMPLATE_DATA_DIR] = dir
  return () => rmSync(dir, { recursive: true, force: true })
}

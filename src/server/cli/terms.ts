/**
 * `npm run terms -- publish FILE.md`: publishes a new version of the terms; every user accepts it again
 * before going on. `npm run terms -- show` prints the current version. Uses the same store as the server
 * (DATA_DIR or DATABASE_URL). The embedded database has one writer: while the server runs on DATA_DIR the
 * command refuses (new terms written beside a running server would be lost at its next restart); with
 * DATABASE_URL it works beside any number of running instances.
 */
import { readFileSync } from 'node:fs'
import { ConfigError, loadConfig } from '../config.ts'
import { migrate } from '../db/migrate.ts'
import { DataDirLockedError } from '../db/data-dir-lock.ts'
import { type Store, openStore } from '../db/store.ts'
import { insertTerms, latestTerms } from '../repo/terms.ts'

const USAGE = 'Usage: npm run terms -- publish FILE.md | show'

export async function publishTerms(store: Store, content: string): Promise<{ id: number; created_at: Date }> {
  if (content.trim().length === 0) throw new Error('The terms file is empty.')
  return insertTerms(store, content)
}

async function main(args: string[]): Promise<number> {
  const [command, file] = args
  if (command !== 'publish' && command !== 'show') {
    console.error(USAGE)
    return 2
  }
  if (command === 'publish' && !file) {
    console.error(USAGE)
    return 2
  }
  const config = loadConfig()
  const store = await openStore({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL }).catch(
    (err: unknown) => {
      if (!(err instanceof DataDirLockedError)) throw err
      throw new ConfigError(
        `The server is running on DATA_DIR ${err.dataDir} (pid ${err.holder.pid}): stop it first, then run this command again.`,
      )
    },
  )
  try {
    await migrate(store)
    if (command === 'publish') {
      const row = await publishTerms(store, readFileSync(file!, 'utf8'))
      console.log(
        `Published terms version ${row.id} (${new Date(row.created_at).toISOString()}); users will accept it again.`,
      )
    } else {
      const row = await latestTerms(store)
      console.log(
        row
          ? `Version ${row.id}, ${new Date(row.created_at).toISOString()}\n\n${row.content}`
          : 'No terms published.',
      )
    }
    return 0
  } finally {
    await store.close()
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof ConfigError || err instanceof Error ? err.message : err)
      process.exit(1)
    },
  )
}

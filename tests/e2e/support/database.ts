/**
 * A throwaway PostgreSQL database for an end-to-end run on the server named by TEST_DATABASE_URL (a role that
 * may create databases): created empty (the stacks migrate it), dropped afterwards with its connections.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined

export interface ThrowawayDatabase {
  /** The database's own URL, for DATABASE_URL. */
  url: string
  drop(): Promise<void>
}

async function admin<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

export async function createThrowawayDatabase(serverUrl: string): Promise<ThrowawayDatabase> {
  const name = `pagecast_e2e_${randomBytes(6).toString('hex')}`
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`))
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () =>
      admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  }
}

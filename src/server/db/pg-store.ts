/** The scale-out store: a pool of connections to a PostgreSQL server. The API keeps no state of its own. */
import pg from 'pg'
import type { Queryable, SqlParam, Store } from './store.ts'

// BIGINT counts stay well below 2^53; read them as numbers, like PGlite does for int8 in JS.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v))
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v))

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async exec(sql: string) {
      await client.query(sql)
    },
    async query<T extends object>(sql: string, params: readonly SqlParam[] = []) {
      const result = await client.query(sql, [...params])
      return result.rows as T[]
    },
  }
}

export async function openPostgresStore(url: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined)
  await pool.query('SELECT 1')
  const top = wrap(pool)
  return {
    kind: 'postgres',
    query: top.query,
    exec: top.exec,
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await fn(wrap(client))
        await client.query('COMMIT')
        return result
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw err
      } finally {
        client.release()
      }
    },
    async session(fn) {
      const client = await pool.connect()
      try {
        return await fn(wrap(client))
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

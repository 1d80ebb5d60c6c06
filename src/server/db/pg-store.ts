/** The scale-out store: a pool of connections to a PostgreSQL server. The API keeps no state of its own. */
import pg from 'pg'
import type { Queryable, SqlParam, Store } from './store-interface.ts'

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

type Listener = { channel: string; onNotify: (payload: string) => void; onResume?: (() => void) | undefined }

/**
 * One connection outside the pool that LISTENs to every channel asked for. When it drops (server restart,
 * network), it is opened again with a growing pause (0.5 s up to 15 s), the channels are listened to again,
 * and each listener is told to catch up on what it could not hear meanwhile.
 */
function listeningConnection(url: string) {
  const listeners = new Set<Listener>()
  let client: pg.Client | undefined
  let connecting: Promise<void> | undefined
  let closed = false
  let retryMs = 500
  let timer: NodeJS.Timeout | undefined

  const quoted = (channel: string) => `"${channel.replace(/"/g, '""')}"`

  const open = async (resume: boolean): Promise<void> => {
    const c = new pg.Client({ connectionString: url })
    c.on('error', () => undefined)
    c.on('notification', (n) => {
      for (const l of listeners) if (l.channel === n.channel) l.onNotify(n.payload ?? '')
    })
    c.on('end', () => {
      if (client !== c || closed) return
      client = undefined
      schedule()
    })
    await c.connect()
    for (const channel of new Set([...listeners].map((l) => l.channel)))
      await c.query(`LISTEN ${quoted(channel)}`)
    if (closed) {
      await c.end().catch(() => undefined)
      return
    }
    client = c
    retryMs = 500
    if (resume) for (const l of listeners) l.onResume?.()
  }

  const schedule = () => {
    if (closed || timer) return
    timer = setTimeout(() => {
      timer = undefined
      connecting = open(true).catch(() => {
        retryMs = Math.min(retryMs * 2, 15_000)
        schedule()
      })
    }, retryMs)
    timer.unref()
  }

  return {
    async add(listener: Listener): Promise<() => Promise<void>> {
      listeners.add(listener)
      if (!client && !timer) {
        connecting ??= open(false).finally(() => (connecting = undefined))
        await connecting
      }
      await client?.query(`LISTEN ${quoted(listener.channel)}`)
      return async () => {
        listeners.delete(listener)
        if (![...listeners].some((l) => l.channel === listener.channel))
          await client?.query(`UNLISTEN ${quoted(listener.channel)}`).catch(() => undefined)
      }
    },
    /** Drops the connection as if the network had cut it (tests of the reconnection). */
    drop(): void {
      const c = client
      if (c) (c as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy()
    },
    async close(): Promise<void> {
      closed = true
      if (timer) clearTimeout(timer)
      await connecting?.catch(() => undefined)
      await client?.end().catch(() => undefined)
      client = undefined
    },
  }
}

export async function openPostgresStore(url: string): Promise<Store> {
  const listening = listeningConnection(url)
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
    listen: (channel, onNotify, onResume) => listening.add({ channel, onNotify, onResume }),
    dropListener: () => listening.drop(),
    close: async () => {
      await listening.close()
      await pool.end()
    },
  }
}

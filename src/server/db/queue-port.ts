/**
 * The job queue's way into the store (bulk/queue.ts): pg-boss's database port on PGlite, and the database's
 * clock, which a queue job's start is compared with.
 */
import type { Store } from './store.ts'

/** pg-boss's database port over the store: PGlite runs multi-statement scripts through `exec`. */
export function queueExecutor(store: Store) {
  return async (text: string, values?: unknown[]) => {
    if (values && values.length > 0) return { rows: await store.query(text, values as never[]) }
    try {
      return { rows: await store.query(text) }
    } catch (err) {
      if (!/multiple commands/i.test(String((err as Error).message))) throw err
      await store.exec(text)
      return { rows: [] }
    }
  }
}

/** The database's clock (epoch ms) as it reads it for this statement; undefined when nothing came back. */
export async function databaseClockMs(store: Store): Promise<number | undefined> {
  const [clock] = await store.query<{ ms: number }>(
    'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms',
  )
  return clock ? Number(clock.ms) : undefined
}

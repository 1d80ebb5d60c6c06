/** The check at start that a PostgreSQL server of `DATABASE_URL` can be used, before any store is opened. */

/**
 * Connects to the server of `url` and runs one statement on a client of its own, closed afterwards. Throws
 * what the connection threw, or an error with the code `TIMEOUT` when nothing answered within `timeoutMs`
 * and one second more.
 */
export async function probeDatabase(url: string, timeoutMs: number): Promise<void> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs })
  // A connection error after connect() settles must not crash the process as an unhandled event.
  client.on('error', () => undefined)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
      timeoutMs + 1_000,
    )
  })
  try {
    await Promise.race([client.connect().then(() => client.query('SELECT 1')), timeout])
  } finally {
    clearTimeout(timer)
    void client.end().catch(() => undefined)
  }
}

/**
 * The server side of `events.bench.ts`, in a process of its own so its memory is measured alone: one API
 * instance (PGlite in memory, or DATABASE_URL) on a free port. It prints `ready <port>` and answers
 * `memory` messages with its RSS, heap and CPU time so far. `webhooks-scale.bench.ts` runs two of them.
 */
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { fakeGraph } from '../../src/server/testing/harness.ts'

const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: 'memory://',
  LOG_LEVEL: 'silent',
  STATIC_DIR: '/nonexistent/pagecast-static',
  FB_APP_SECRET: process.env.BENCH_APP_SECRET ?? 'bench-app-secret',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
})
const app = await buildApp({ config, graph: fakeGraph, rateLimits: { login: 100_000 } })
const address = await app.listen({ host: '127.0.0.1', port: 0 })
process.on('message', (m: unknown) => {
  if (m === 'memory') {
    global.gc?.()
    const { rss, heapUsed } = process.memoryUsage()
    const { user, system } = process.cpuUsage()
    process.send?.({ rss, heapUsed, cpuMs: (user + system) / 1000 })
  }
  // Every user signed in so far owns the bench page (bound directly: trial rules are not what is measured).
  if (m && typeof m === 'object' && 'bind' in m) {
    const pageId = String((m as { bind: string }).bind)
    void (async () => {
      await app.store.query(`INSERT INTO pages (id, name) VALUES ($1, 'Bench page') ON CONFLICT DO NOTHING`, [
        pageId,
      ])
      await app.store.query(
        `INSERT INTO user_pages (user_id, page_id) SELECT id, $1 FROM users ON CONFLICT DO NOTHING`,
        [pageId],
      )
      process.send?.({ bound: true })
    })()
  }
  if (m === 'stop') void app.close().then(() => process.exit(0))
})
process.send?.({ ready: new URL(address).port })

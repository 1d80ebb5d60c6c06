/**
 * The API of `server-sender.bench.ts`, in a process of its own so that what is measured (CPU, memory) is the
 * API's alone, not the bench's calls, its database set-up or its polling. Started with IPC; the loadConfig
 * input comes as JSON in BENCH_API_CONFIG. It sends `{ ready: true }` once it listens and answers:
 * `{ id, query, params }` with `{ id, rows }` (or `{ id, error }`), `{ profile: 'start' | <file> }` (a V8 CPU
 * profile from start until written to that file) with `{ profiled: true }`, and `'close'` by closing and exiting.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import type { SqlParam } from '../../src/server/db/store-interface.ts'

const config = loadConfig(JSON.parse(process.env.BENCH_API_CONFIG ?? '{}') as Record<string, string>)
const app = await buildApp({ config, serverSender: { settleMs: 200, pollingSeconds: 2 } })
await app.listen({ host: '127.0.0.1', port: config.PORT })
const profiler = new Session()

process.on('message', (m: unknown) => {
  void (async () => {
    if (m === 'close') {
      await app.close()
      process.exit(0)
    }
    if (m && typeof m === 'object' && 'query' in m) {
      const { id, query, params } = m as { id: number; query: string; params?: SqlParam[] }
      try {
        process.send?.({ id, rows: await app.store.query(query, params) })
      } catch (e) {
        process.send?.({ id, error: String(e) })
      }
    }
    if (m && typeof m === 'object' && 'profile' in m) {
      const file = (m as { profile: string }).profile
      if (file === 'start') {
        profiler.connect()
        await profiler.post('Profiler.enable')
        await profiler.post('Profiler.start')
      } else {
        const { profile } = await profiler.post('Profiler.stop')
        writeFileSync(file, JSON.stringify(profile))
        profiler.disconnect()
      }
      process.send?.({ profiled: true })
    }
  })()
})
process.send?.({ ready: true })

/**
 * The job queue's cost when idle and its latency for local work: the queue on an in-memory PGlite with the
 * production settings (SERVER_SENDER_CONCURRENCY workers' worth of slots, both queues), left idle, counting the
 * SQL statements pg-boss issues (its polls, maintenance and monitoring); then the time from `kick()` to the
 * slice's start and from a scheduled start's time to the start running. Figures, not a timed test.
 */
import { randomBytes } from 'node:crypto'
import { migrate } from '../../src/server/db/migrate.ts'
import { openStore } from '../../src/server/db/store.ts'
import type { Store } from '../../src/server/db/store.ts'
import { startJobQueue } from '../../src/server/bulk/queue.ts'
import { tokenBox } from '../../src/server/bulk/token-box.ts'

const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30)
const KICKS = Number(process.env.BENCH_KICKS ?? 10)
const CONCURRENCY = Number(process.env.SERVER_SENDER_CONCURRENCY ?? 16)

const store = await openStore({ dataDir: 'memory://' })
await migrate(store)

/** Every statement pg-boss sends goes through the store it was given: counted here, by kind. */
const counts = { all: 0, fetch: 0 }
const counted: Store = {
  ...store,
  async query(sql, params) {
    counts.all++
    if (/SKIP LOCKED/.test(sql)) counts.fetch++
    return store.query(sql, params)
  },
  async exec(sql) {
    counts.all++
    return store.exec(sql)
  },
}

/** The sender's first statement (taking the job's lease) marks the slice's start. */
const sliceStarts = new Map<string, number>()
const senderStore: Store = {
  ...store,
  async query(sql, params) {
    const id = params?.[0]
    if (/SET lease = lease \+ 1/.test(sql) && typeof id === 'string' && !sliceStarts.has(id))
      sliceStarts.set(id, performance.now())
    return store.query(sql, params)
  },
}
const scheduledStarts = new Map<string, number>()

const queue = await startJobQueue({
  store: counted,
  concurrency: CONCURRENCY,
  startScheduled: async (id) => {
    scheduledStarts.set(id, Date.now())
  },
  sender: {
    store: senderStore,
    box: tokenBox(randomBytes(32)),
    graph: {} as never,
    notify: async () => {},
    now: Date.now,
    random: Math.random,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    pacingScale: 1,
    settleMs: 5_000,
  },
})
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// Startup's own statements are left out: the count starts once the queue has settled.
await sleep(2_000)
counts.all = 0
counts.fetch = 0
const t0 = performance.now()
const cpu0 = process.cpuUsage()
await sleep(IDLE_S * 1000)
const cpu = process.cpuUsage(cpu0)
const idleS = (performance.now() - t0) / 1000
const idle = { ...counts }

const latencies: number[] = []
for (let i = 0; i < KICKS; i++) {
  // Kicked at a different point of any polling cycle each time.
  await sleep(150 + Math.random() * 1_100)
  const id = `9${i}${Date.now() % 100_000}`
  const at = performance.now()
  await queue.kick(id)
  const deadline = Date.now() + 60_000
  while (!sliceStarts.has(id) && Date.now() < deadline) await sleep(2)
  latencies.push((sliceStarts.get(id) ?? Number.NaN) - at)
}
const scheduledLate: number[] = []
for (let i = 0; i < 3; i++) {
  const id = `8${i}${Date.now() % 100_000}`
  const at = Date.now() + 1_500 + Math.random() * 1_000
  await queue.schedule(id, at)
  const deadline = Date.now() + 60_000
  while (!scheduledStarts.has(id) && Date.now() < deadline) await sleep(5)
  scheduledLate.push((scheduledStarts.get(id) ?? Number.NaN) - at)
}
await queue.stop()
await store.close()

const sorted = [...latencies].sort((a, b) => a - b)
const ms = (v: number | undefined) => `${(v ?? Number.NaN).toFixed(0)} ms`
console.log(
  `idle ${idleS.toFixed(1)} s, ${CONCURRENCY} slots: ${idle.all} statements (${(idle.all / idleS).toFixed(2)}/s),` +
    ` of which fetches ${idle.fetch} (${(idle.fetch / idleS).toFixed(2)}/s);` +
    ` CPU ${((cpu.user + cpu.system) / 1000 / idleS).toFixed(1)} ms/s`,
)
console.log(
  `kick() to slice start (${KICKS} kicks): median ${ms(sorted[Math.floor(sorted.length / 2)])}, max ${ms(sorted.at(-1))}`,
)
console.log(`scheduled start after its time: ${scheduledLate.map(ms).join(', ')}`)

/**
 * The server sender under load: 100 jobs handed over at once (BENCH_JOBS), sent side by side by one API
 * instance with the pacing scaled down; the sandbox runs in a process of its own, so what is measured is the
 * API's process. Printed: that process's CPU per delivered message (the queue, the sender, the touches, the
 * progress; with BENCH_DB=pglite, the default, also the embedded database's WASM PostgreSQL, whose memory is
 * most of the RSS; with BENCH_DB=postgres, on TEST_DATABASE_URL, the database's own CPU is outside), the
 * sandbox's CPU beside it, the peak memory, and the wall time. Figures, not a timed test; the last line is
 * the figures as JSON for sender-scale.bench.ts. `BENCH_CPU_PROF=<dir>` writes the API process's CPU profile of
 * the send (from the first hand-over to the last job's end) there.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'
import { loadavg } from 'node:os'
import { conversationCustomerMessageAt } from '../../src/core/policy/window.ts'
import { isInsideWindow } from '../../src/core/policy/messaging.ts'
import { REQUIRED_PERMISSIONS } from '../../src/core/constants/limits.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { createTestDatabase, TEST_DATABASE_URL } from '../../src/server/testing/harness.ts'
import { freePort } from '../e2e/support/stack.ts'
import { callJson } from './call-json.ts'
import { DEMO_SEED } from '../integration/support/stack.ts'

const JOBS = Number(process.env.BENCH_JOBS ?? 100)
const PER_JOB = Number(process.env.BENCH_RECIPIENTS ?? 10)
const SCALE = Number(process.env.BENCH_PACING_SCALE ?? 0.02)
const DB = process.env.BENCH_DB ?? 'pglite'
/** A directory: the API process's CPU profile of the send is written there. */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF
/** The goals per message and for the process's memory. */
const goals = { cpu_ms_per_message: 3, peak_rss_mb: 250 }

if (DB !== 'pglite' && DB !== 'postgres') throw new Error('BENCH_DB is pglite or postgres')
if (DB === 'postgres' && !TEST_DATABASE_URL) {
  console.log('server-sender: skipped: BENCH_DB=postgres needs TEST_DATABASE_URL')
  process.exit(0)
}

/** A process's CPU so far (user + system, ms), from /proc. */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // utime and stime, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const ids = demoPageIds(DEMO_SEED)
const apiPort = await freePort()
const sandboxPort = await freePort()
const base = `http://127.0.0.1:${apiPort}`
const sandboxBase = `http://127.0.0.1:${sandboxPort}`
const database = DB === 'postgres' ? await createTestDatabase(TEST_DATABASE_URL!) : undefined
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: 'memory://',
  LOG_LEVEL: 'silent',
  STATIC_DIR: '/nonexistent',
  PUBLIC_URL: base,
  PORT: String(apiPort),
  GRAPH_URL: `${sandboxBase}/sandbox/graph`,
  PACING_SCALE: String(SCALE),
  SERVER_SENDER_CONCURRENCY: String(JOBS),
  ...(database ? { DATABASE_URL: database.url } : {}),
})

const sandbox: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/sandbox-process.ts'], {
  env: {
    ...process.env,
    PORT: String(sandboxPort),
    SANDBOX_OPTIONS: JSON.stringify({
      seed: DEMO_SEED,
      appId: config.FB_APP_ID,
      appSecret: config.FB_APP_SECRET,
      publicUrl: sandboxBase,
    }),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
})
await new Promise<void>((resolve, reject) => {
  sandbox.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve())
  sandbox.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)))
})

const app = await buildApp({ config, serverSender: { settleMs: 200, pollingSeconds: 2 } })
await app.listen({ host: '127.0.0.1', port: apiPort })

const call = callJson

const userToken = (
  await call(sandboxBase, 'POST', '/sandbox/token', { user: 'demo', scopes: [...REQUIRED_PERMISSIONS] })
).access_token as string
const api = (await call(base, 'POST', '/api/v2/login', { access_token: userToken })).data.token as string
// Enough allowance for every message: the bench measures the sender, not the refusals.
await app.store.query('UPDATE subscriptions SET addons_messages = 1000000')
const accounts = await call(
  sandboxBase,
  'GET',
  `/sandbox/graph/v25.0/me/accounts?fields=id,access_token&access_token=${userToken}`,
)
const pageToken = (accounts.data as { id: string; access_token: string }[]).find(
  (p) => p.id === ids.small,
)!.access_token
await call(base, 'POST', '/api/v2/page', { id: ids.small, name: 'Small', access_token: pageToken }, api)
const list = (
  await call(
    sandboxBase,
    'GET',
    `/sandbox/graph/v25.0/${ids.small}/conversations?fields=id,participants,messages.limit(10){from,created_time}&limit=100&access_token=${pageToken}`,
  )
).data as { id: string; participants: { data: { id: string; name: string }[] } }[]
const now = Date.now()
const audience = list
  .filter((c) => isInsideWindow(conversationCustomerMessageAt(ids.small, c as never), now))
  .slice(0, PER_JOB)
  .map((c) => {
    const who = c.participants.data.find((p) => p.id !== ids.small)!
    return { recipient_id: who.id, name: who.name, conversation_id: c.id }
  })

const jobIds: string[] = []
for (let j = 0; j < JOBS; j++) {
  const created = await call(
    base,
    'POST',
    '/api/v2/messages',
    {
      page_id: ids.small,
      message_type_id: 1,
      message: `Bench ${j}`,
      label: '[]',
      total_messages: audience.length,
      branded_messages_amount: 0,
    },
    api,
  )
  const id = created.id as string
  await call(base, 'PUT', `/api/v2/messages/${id}/recipients`, { recipients: audience }, api)
  jobIds.push(id)
}

global.gc?.()
let peakRss = 0
let peakHeap = 0
const sampler = setInterval(() => {
  const m = process.memoryUsage()
  peakRss = Math.max(peakRss, m.rss)
  peakHeap = Math.max(peakHeap, m.heapUsed)
}, 100)
const rssBefore = process.memoryUsage().rss
const profiler = CPU_PROF_DIR ? new Session() : undefined
if (profiler) {
  profiler.connect()
  await profiler.post('Profiler.enable')
  await profiler.post('Profiler.start')
}
const cpu0 = process.cpuUsage()
const sandboxCpu0 = processCpuMs(sandbox.pid!)
const t0 = Date.now()
for (const id of jobIds)
  await call(
    base,
    'POST',
    `/api/v2/messages/${id}/handover`,
    { lease: 0, page_token: pageToken, cursor: 0 },
    api,
  )
for (;;) {
  const rows = await app.store.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM messages WHERE state <> 'open'",
  )
  if (rows[0]!.n >= JOBS) break
  if (Date.now() - t0 > 30 * 60_000) throw new Error('the jobs did not end in 30 minutes')
  await new Promise((r) => setTimeout(r, 250))
}
const wall = Date.now() - t0
const cpu = process.cpuUsage(cpu0)
if (profiler) {
  const { profile } = await profiler.post('Profiler.stop')
  mkdirSync(CPU_PROF_DIR!, { recursive: true })
  writeFileSync(join(CPU_PROF_DIR!, `server-sender-${DB}.cpuprofile`), JSON.stringify(profile))
  profiler.disconnect()
}
const sandboxCpuMs = processCpuMs(sandbox.pid!) - sandboxCpu0
clearInterval(sampler)
const messages = JOBS * audience.length
const cpuMs = (cpu.user + cpu.system) / 1000
const finished = (
  await app.store.query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE state = 'finished'")
)[0]!.n
const sent = ((await call(sandboxBase, 'GET', '/sandbox/sent')).data as { text: string }[]).filter((s) =>
  s.text.startsWith('Bench '),
).length
await app.close()
sandbox.kill('SIGTERM')
await database?.drop()

const figures = {
  db: DB,
  jobs: JOBS,
  messages,
  finished_jobs: finished,
  delivered_by_sandbox_log: sent,
  pacing_scale: SCALE,
  wall_s: Number((wall / 1000).toFixed(1)),
  cpu_ms_per_message: Number((cpuMs / messages).toFixed(2)),
  sandbox_cpu_ms_per_message: Number((sandboxCpuMs / messages).toFixed(2)),
  rss_before_send_mb: Math.round(rssBefore / 1e6),
  peak_rss_mb: Math.round(peakRss / 1e6),
  peak_heap_mb: Math.round(peakHeap / 1e6),
  load_1min: Number(loadavg()[0]!.toFixed(1)),
}
console.log(
  `server sender, ${JOBS} concurrent jobs on ${DB === 'pglite' ? 'PGlite (in the API process)' : 'PostgreSQL (its own process)'}, sandbox in its own process:`,
)
console.log(
  `  API process: cpu per message ${figures.cpu_ms_per_message} ms (goal ${goals.cpu_ms_per_message}), peak rss ${figures.peak_rss_mb} MB (goal ${goals.peak_rss_mb}; ${figures.rss_before_send_mb} MB before the send), wall ${figures.wall_s} s`,
)
console.log(`  sandbox process: cpu per message ${figures.sandbox_cpu_ms_per_message} ms (not counted above)`)
console.log(`figures ${JSON.stringify(figures)}`)
if (sent !== messages || finished !== JOBS) {
  console.error(
    `delivered ${sent} of ${messages}, ${finished} of ${JOBS} jobs finished: a message was lost or sent twice`,
  )
  process.exit(1)
}
process.exit(0)

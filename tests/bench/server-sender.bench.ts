/**
 * The server sender under load: 100 jobs handed over at once (BENCH_JOBS), sent side by side by one API
 * instance with the pacing scaled down. The API and the sandbox each run in a process of their own
 * (`sender-api-process.ts`, `sandbox-process.ts`), so what is measured is the API's process alone, not this
 * bench's calls and polling. Printed: that process's CPU per delivered message (the queue, the sender, the
 * touches, the progress; with BENCH_DB=pglite, the default, also the embedded database's WASM PostgreSQL, whose
 * memory is most of the RSS; with BENCH_DB=postgres, on TEST_DATABASE_URL, the database's own CPU is outside),
 * the sandbox's CPU beside it, the process's peak memory over its whole life (the kernel's high-water mark),
 * and the wall time. Figures, not a timed test; the last line is
 * the figures as JSON for `sender-scale.bench.ts`. `BENCH_CPU_PROF=<dir>` writes the API process's CPU profile of
 * the send (from the first hand-over to the last job's end) there.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadavg } from 'node:os'
import { conversationCustomerMessageAt } from '../../src/core/policy/window.ts'
import { isInsideWindow } from '../../src/core/policy/messaging.ts'
import { REQUIRED_PERMISSIONS } from '../../src/core/constants/limits.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
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

/** A process's CPU so far (ms), from /proc: in its own code (user) and in the kernel for it (system). */
function processCpu(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // utime and stime, in clock ticks (100 a second on Linux).
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 }
}

function processCpuMs(pid: number): number {
  const { user, system } = processCpu(pid)
  return user + system
}

/** A process's resident memory now and at its highest so far (MB), from /proc. */
function processMemoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1])
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) }
}

const ids = demoPageIds(DEMO_SEED)
const apiPort = await freePort()
const sandboxPort = await freePort()
const base = `http://127.0.0.1:${apiPort}`
const sandboxBase = `http://127.0.0.1:${sandboxPort}`
const database = DB === 'postgres' ? await createTestDatabase(TEST_DATABASE_URL!) : undefined
const apiConfig: Record<string, string> = {
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
}
const config = loadConfig(apiConfig)

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

const api: ChildProcess = fork(join(import.meta.dirname, 'sender-api-process.ts'), {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, BENCH_API_CONFIG: JSON.stringify(apiConfig) },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
})
let asked = 0
/** The reply to one message to the API process. */
function ask<T>(message: object, reply: (m: Record<string, unknown>) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Record<string, unknown>) => {
      if (m.error) reject(new Error(String(m.error)))
      const value = reply(m)
      if (value === undefined) return
      api.off('message', onMessage)
      resolve(value)
    }
    api.on('message', onMessage)
    api.send(message)
  })
}
/** A query run by the API's own store (PGlite lives in that process). */
function query<T>(sql: string, params?: unknown[]): Promise<T[]> {
  const id = ++asked
  return ask({ id, query: sql, params }, (m) => (m.id === id ? (m.rows as T[]) : undefined))
}
await new Promise<void>((resolve, reject) => {
  api.once('message', () => resolve())
  api.once('exit', (code) => reject(new Error(`the API exited (${code})`)))
})

const call = callJson

const userToken = (
  await call(sandboxBase, 'POST', '/sandbox/token', { user: 'demo', scopes: [...REQUIRED_PERMISSIONS] })
).access_token as string
const session = (await call(base, 'POST', '/api/v2/login', { access_token: userToken })).data.token as string
// Enough allowance for every message: the bench measures the sender, not the refusals.
await query('UPDATE subscriptions SET addons_messages = 1000000')
const accounts = await call(
  sandboxBase,
  'GET',
  `/sandbox/graph/v25.0/me/accounts?fields=id,access_token&access_token=${userToken}`,
)
const pageToken = (accounts.data as { id: string; access_token: string }[]).find(
  (p) => p.id === ids.small,
)!.access_token
await call(base, 'POST', '/api/v2/page', { id: ids.small, name: 'Small', access_token: pageToken }, session)
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
    session,
  )
  const id = created.id as string
  await call(base, 'PUT', `/api/v2/messages/${id}/recipients`, { recipients: audience }, session)
  jobIds.push(id)
}

const rssBefore = processMemoryMb(api.pid!).rss
if (CPU_PROF_DIR) await ask({ profile: 'start' }, (m) => m.profiled as boolean | undefined)
const cpu0 = processCpu(api.pid!)
const sandboxCpu0 = processCpuMs(sandbox.pid!)
const t0 = Date.now()
for (const id of jobIds)
  await call(
    base,
    'POST',
    `/api/v2/messages/${id}/handover`,
    { lease: 0, page_token: pageToken, cursor: 0 },
    session,
  )
for (;;) {
  const rows = await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE state <> 'open'")
  if (rows[0]!.n >= JOBS) break
  if (Date.now() - t0 > 30 * 60_000) throw new Error('the jobs did not end in 30 minutes')
  await new Promise((r) => setTimeout(r, 250))
}
const wall = Date.now() - t0
const cpu1 = processCpu(api.pid!)
const userMs = cpu1.user - cpu0.user
const cpuMs = userMs + cpu1.system - cpu0.system
if (CPU_PROF_DIR) {
  mkdirSync(CPU_PROF_DIR, { recursive: true })
  const file = join(CPU_PROF_DIR, `server-sender-${DB}.cpuprofile`)
  await ask({ profile: file }, (m) => m.profiled as boolean | undefined)
}
const memory = processMemoryMb(api.pid!)
const sandboxCpuMs = processCpuMs(sandbox.pid!) - sandboxCpu0
const messages = JOBS * audience.length
const finished = (
  await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE state = 'finished'")
)[0]!.n
const sent = ((await call(sandboxBase, 'GET', '/sandbox/sent')).data as { text: string }[]).filter((s) =>
  s.text.startsWith('Bench '),
).length
api.send('close')
await new Promise((resolve) => api.once('exit', resolve))
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
  user_cpu_ms_per_message: Number((userMs / messages).toFixed(2)),
  sandbox_cpu_ms_per_message: Number((sandboxCpuMs / messages).toFixed(2)),
  rss_before_send_mb: rssBefore,
  rss_after_send_mb: memory.rss,
  peak_rss_mb: memory.peak,
  load_1min: Number(loadavg()[0]!.toFixed(1)),
}
console.log(
  `server sender, ${JOBS} concurrent jobs on ${DB === 'pglite' ? 'PGlite (in the API process)' : 'PostgreSQL (its own process)'}, sandbox in its own process:`,
)
console.log(
  `  API process: cpu per message ${figures.cpu_ms_per_message} ms (goal ${goals.cpu_ms_per_message}; ${figures.user_cpu_ms_per_message} ms of it in its own code, the rest in the kernel), peak rss ${figures.peak_rss_mb} MB (goal ${goals.peak_rss_mb}; ${figures.rss_before_send_mb} MB before the send), wall ${figures.wall_s} s`,
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

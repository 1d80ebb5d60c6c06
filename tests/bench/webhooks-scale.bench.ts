/**
 * Webhooks at scale: two API instances on one PostgreSQL database, owners' event streams open on both, and
 * signed Messenger webhooks posted to them in turn at rising sustained rates (100 to 1,000 events a second,
 * each step 5 s). For each rate: the rate the instances accepted, the delay from a webhook's POST to each
 * stream's receipt (p50, p99, max; a stream on the other instance included), receipts lost, each
 * instance's CPU and memory, the database connections open and the most bodies stored and not yet processed. The rate held is the highest at which p99 stays under 1 s with nothing lost
 * (goal: 500 events/s on a 2-core machine). Needs PostgreSQL: `TEST_DATABASE_URL` or `DATABASE_URL` (a role
 * that may create databases; a throwaway database is made and dropped). `BENCH_CPU_PROF=<dir>` writes each instance's CPU profile
 * there. Figures, not a timed test.
 */
import { type ChildProcess, fork } from 'node:child_process'
import http from 'node:http'
import { join } from 'node:path'
import pg from 'pg'
import { createThrowawayDatabase } from '../e2e/support/database.ts'
import { openEventStreams, signedCustomerMessage } from './event-streams.ts'

const SERVER = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL
if (!SERVER) {
  console.log(
    '  skipped: set TEST_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server; two instances share it',
  )
  process.exit(0)
}
const OWNERS = Number(process.env.BENCH_OWNERS ?? 20)
const RATES = (process.env.BENCH_RATES ?? '100,250,500,750,1000').split(',').map(Number)
const STEP_MS = Number(process.env.BENCH_STEP_MS ?? 5_000)
const SECRET = 'bench-app-secret'
const PAGE = '990001'
const GOAL_RATE = 500
const GOAL_P99_MS = 1_000
/** A directory: each instance writes a V8 CPU profile there when it stops (`node --cpu-prof`). */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF

interface Usage {
  rss: number
  heapUsed: number
  cpuMs: number
}
interface Instance {
  name: string
  child: ChildProcess
  base: string
  ask<T>(message?: string | object): Promise<T>
}

const database = await createThrowawayDatabase(SERVER)

async function start(name: string): Promise<Instance> {
  const child = fork(join(import.meta.dirname, 'events-server.ts'), {
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(CPU_PROF_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`, `--cpu-prof-name=${name}.cpuprofile`]
        : []),
    ],
    env: { ...process.env, BENCH_APP_SECRET: SECRET, DATABASE_URL: database.url },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const replies: ((m: unknown) => void)[] = []
  child.on('message', (m) => replies.shift()?.(m))
  const ask = <T>(message?: string | object) =>
    new Promise<T>((resolve) => {
      replies.push(resolve as (m: unknown) => void)
      if (message) child.send(message)
    })
  const { ready } = await ask<{ ready: string }>()
  return { name, child, base: `http://127.0.0.1:${ready}`, ask }
}

// One after the other: the first migrates the fresh database.
const a = await start('A')
const b = await start('B')
const instances = [a, b]
process.on('exit', () => instances.forEach((i) => i.child.kill()))

/** What the database holds for the two: their connections, and the bodies stored and not yet processed. */
const watcher = new pg.Client({ connectionString: database.url })
await watcher.connect()
async function databaseLoad(): Promise<{ connections: number; queued: number }> {
  const [row] = (
    await watcher.query<{ connections: number; queued: number }>(
      `SELECT (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()) AS connections,
         (SELECT count(*)::int FROM webhook_events WHERE processed_at IS NULL) AS queued`,
    )
  ).rows
  return row!
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

function post(base: string, path: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function login(instance: Instance, i: number): Promise<string> {
  const res = await fetch(`${instance.base}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ access_token: `fb:${800000 + i}` }),
  })
  if (!res.ok) throw new Error(`login ${i}: ${res.status}`)
  return ((await res.json()) as { data: { token: string } }).data.token
}

console.log(`  ${OWNERS} owners of one page, one stream each on instance A and on instance B…`)
const tokens: string[] = []
for (let i = 0; i < OWNERS; i++) tokens.push(await login(a, i))
await a.ask({ bind: PAGE })

/** mid -> when its webhook was posted; every receipt on every stream adds a delay. */
const posted = new Map<string, number>()
let delays: number[] = []
let received = 0
const STREAMS = OWNERS * instances.length
const requests = await openEventStreams(
  instances.flatMap((instance) => tokens.map((token) => ({ base: instance.base, token }))),
  (mid, now) => {
    const at = posted.get(mid)
    if (at !== undefined) {
      delays.push(now - at)
      received++
    }
  },
)
await new Promise((r) => setTimeout(r, 1_000))

let sequence = 0
function webhook(): { mid: string; body: string; signature: string } {
  const n = sequence++
  const mid = `m_scale_${n}`
  return { mid, ...signedCustomerMessage(SECRET, PAGE, String(5_000_000 + (n % 500)), mid, `scale ${n}`) }
}

/** Reads a percentile of delays sorted ascending (a step at 1,000/s holds hundreds of thousands of them). */
const pct = (sorted: ArrayLike<number>, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`
const usage = () => Promise.all(instances.map((i) => i.ask<Usage>('memory')))

interface Step {
  rate: number
  accepted: number
  refused: number
  p50: number
  p99: number
  max: number
  lost: number
  cpu: string
  rss: string
  connections: number
  queued: number
}
const steps: Step[] = []
for (const rate of RATES) {
  delays = []
  received = 0
  const before = await usage()
  const started = performance.now()
  let sent = 0
  let accepted = 0
  let refused = 0
  const inFlight: Promise<void>[] = []
  let connections = 0
  let queued = 0
  let sampling = false
  const sampler = setInterval(() => {
    if (sampling) return
    sampling = true
    void databaseLoad()
      .then((l) => {
        connections = Math.max(connections, l.connections)
        queued = Math.max(queued, l.queued)
      })
      .finally(() => (sampling = false))
  }, 250)
  // Ticks of 20 ms, each posting what the rate owes by then: a sustained rate, not a burst.
  while (performance.now() - started < STEP_MS) {
    const owed = Math.floor(((performance.now() - started) / 1000) * rate)
    for (; sent < owed; sent++) {
      const { mid, body, signature } = webhook()
      const target = instances[sent % instances.length]!
      posted.set(mid, performance.now())
      inFlight.push(
        post(target.base, '/webhooks/messenger', body, { 'x-hub-signature-256': signature }).then(
          (status) => void (status === 200 ? accepted++ : refused++),
          () => void refused++,
        ),
      )
    }
    await new Promise((r) => setTimeout(r, 20))
  }
  await Promise.all(inFlight)
  clearInterval(sampler)
  const postedFor = (performance.now() - started) / 1000
  const expected = accepted * STREAMS
  const drain = Date.now() + 10_000
  while (received < expected && Date.now() < drain) await new Promise((r) => setTimeout(r, 100))
  const after = await usage()
  const sorted = Float64Array.from(delays).sort()
  steps.push({
    rate,
    accepted: Math.round(accepted / postedFor),
    refused,
    p50: pct(sorted, 0.5),
    p99: pct(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
    lost: expected - received,
    cpu: after
      .map((u, i) => `${instances[i]!.name} ${((u.cpuMs - before[i]!.cpuMs) / postedFor / 10) | 0}%`)
      .join(', '),
    rss: after.map((u, i) => `${instances[i]!.name} ${mb(u.rss)}`).join(', '),
    connections,
    queued,
  })
  const s = steps.at(-1)!
  console.log(
    `  ${String(rate).padStart(5)}/s asked: ${s.accepted}/s accepted, ${refused} refused; webhook -> stream p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms; ${s.lost} receipts lost; CPU ${s.cpu}; RSS ${s.rss}; DB connections ${s.connections}, bodies queued up to ${s.queued}`,
  )
  posted.clear()
  await new Promise((r) => setTimeout(r, 1_000))
}

const held = steps.filter(
  (s) => s.p99 < GOAL_P99_MS && s.lost === 0 && s.refused === 0 && s.accepted >= s.rate * 0.95,
)
const best = held.at(-1)?.rate ?? 0
console.log(
  `  rate held (p99 webhook -> client under ${GOAL_P99_MS} ms, nothing lost, ${STREAMS} streams on two instances): ${best} events/s (goal ${GOAL_RATE})`,
)

for (const r of requests) r.destroy()
agent.destroy()
await watcher.end()
for (const instance of instances) instance.child.send('stop')
await Promise.all(instances.map((i) => new Promise((r) => i.child.once('exit', r))))
await database.drop()

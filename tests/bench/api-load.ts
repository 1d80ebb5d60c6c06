/**
 * Load benchmark of the product API on loopback (`npx tsx tests/bench/api-load.ts`): `touch` (each request a
 * new recipient, so every one spends from the allowance) and `GET /api/v2/user`, each measured three ways in
 * the same run and process: a bare `node:http` server answering the same JSON bytes (the ceiling of HTTP on
 * this machine), the route, and the store alone running the route's SQL with no HTTP (the ceiling the store
 * sets). For the store alone, touch is the touch statement (`repo/touch.ts`) and GET /user the uncached
 * session lookup plus the subscription read: the route keeps those two for a moment (`db/read-cache.ts`), so
 * it may beat that figure. Prints requests per second, p99 latency, and the ratios route / store and
 * route / bare. About BENCH_SECONDS (default 10) per measurement, taken in BENCH_SLICES (default 5) turns;
 * BENCH_CONNECTIONS (default 20) concurrent clients (concurrent store calls for the store alone). The store is
 * PGlite in a throwaway folder, or the PostgreSQL database of DATABASE_URL.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { performance } from 'node:perf_hooks'
import { join } from 'node:path'
import webpush from 'web-push'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { hashToken, lookupSession } from '../../src/server/http/auth.ts'
import { loadSubscription } from '../../src/server/repo/subscriptions.ts'
import { touch } from '../../src/server/repo/touch.ts'
import { fakeGraph, pageToken } from '../../src/server/testing/harness.ts'

interface CannonRequest {
  method: string
  path: string
  headers?: Record<string, string>
  body?: string
  setupRequest?: (req: CannonRequest) => CannonRequest
}
interface CannonResult {
  requests: { average: number; total: number }
  latency: { p99: number; average: number }
  non2xx: number
  '2xx': number
  errors: number
  timeouts: number
}
type Autocannon = (opts: {
  url: string
  connections: number
  duration: number
  requests: CannonRequest[]
}) => Promise<CannonResult>

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20)
/**
 * Each measurement is taken in this many slices, the three of a target taking turns (bare, route, store,
 * bare, ...), so a shared machine's changing load weighs on all three alike and the ratios stay fair.
 */
const SLICES = Math.max(1, Math.min(SECONDS, Number(process.env.BENCH_SLICES ?? 5)))
const SLICE_SECONDS = SECONDS / SLICES

const dataDir = mkdtempSync(join(tmpdir(), 'pagecast-bench-'))
// Production on a PostgreSQL database takes its keys from the configuration only: a throwaway pair and key.
const vapid = webpush.generateVAPIDKeys()
const config = loadConfig({
  NODE_ENV: 'production',
  // A production start names the network; the bench never calls it (the fake Graph answers).
  GRAPH_URL: 'https://graph.facebook.com',
  // Production refuses the public default secrets.
  FB_APP_SECRET: 'bench-app-secret',
  WEBHOOK_VERIFY_TOKEN: 'bench-verify-token',
  SANDBOX_WEBHOOK_SECRET: 'whsec_bench_secret',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  STATIC_DIR: join(dataDir, 'no-app'),
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
  TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
})
const app = await buildApp({ config, graph: fakeGraph, rateLimits: { login: 1_000 } })
const apiUrl = await app.listen({ host: '127.0.0.1', port: 0 })

const login = await app.inject({
  method: 'POST',
  url: '/api/v2/login',
  payload: { access_token: `fb:9${Date.now()}` },
})
const { token, user } = (
  login.json() as { data: { token: string; user: { id: string; facebook_id: string } } }
).data
const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
await app.store.query('UPDATE subscriptions SET subscriptions_messages = 100000000 WHERE user_id = $1', [
  user.id,
])
// A page of its own each run: a database kept between runs (DATABASE_URL) has used the last one's trial.
const pageId = String(Date.now())
const bound = await app.inject({
  method: 'POST',
  url: '/api/v2/page',
  headers: auth,
  payload: { id: pageId, name: 'Bench page', access_token: pageToken(pageId, user.facebook_id) },
})
if (bound.statusCode !== 200) throw new Error(`page registration failed: ${bound.body}`)
const created = await app.inject({
  method: 'POST',
  url: '/api/v2/messages',
  headers: auth,
  payload: {
    page_id: pageId,
    message_type_id: 3,
    message: 'Bench',
    label: '[]',
    total_messages: 1_000_000,
    branded_messages_amount: 0,
  },
})
const messageId = (created.json() as { id: string }).id
const touchPath = `/api/v2/messages/${messageId}/touch`
let recipient = 0
const touchBody = () => JSON.stringify({ _method: 'PUT', status: 'OK', recipient_id: `r${++recipient}` })

// The bare server answers exactly the bytes the API answers, so only the framework, auth and store differ.
const sample = {
  user: (await app.inject({ url: '/api/v2/user', headers: auth })).body,
  touch: (await app.inject({ method: 'POST', url: touchPath, headers: auth, payload: touchBody() })).body,
}
const bare = createServer((req, res) => {
  const body = req.url === touchPath ? sample.touch : sample.user
  req.resume()
  req.on('end', () => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    })
    res.end(body)
  })
})
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve))
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`

const touchRequest: CannonRequest = {
  method: 'POST',
  path: touchPath,
  headers: auth,
  setupRequest: (req) => ({ ...req, body: touchBody() }),
}
const userRequest: CannonRequest = { method: 'GET', path: '/api/v2/user', headers: auth }

async function run(url: string, request: CannonRequest): Promise<CannonResult> {
  return autocannon({ url, connections: CONNECTIONS, duration: SLICE_SECONDS, requests: [request] })
}

interface Rate {
  rate: number
  /** Calls answered (2xx for HTTP). */
  done: number
  p99: number
  errors: number
}

/** `op` called by CONNECTIONS concurrent callers for one slice, straight on the store (no HTTP). */
async function storeRate(op: () => Promise<unknown>): Promise<Rate> {
  const latencies: number[] = []
  let errors = 0
  const start = performance.now()
  const end = start + SLICE_SECONDS * 1000
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now()
        try {
          await op()
          latencies.push(performance.now() - t0)
        } catch {
          errors++
        }
      }
    }),
  )
  latencies.sort((a, b) => a - b)
  const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0
  const rate = latencies.length / ((performance.now() - start) / 1000)
  return { rate, done: latencies.length, p99: Math.round(p99), errors }
}

const fromCannon = (r: CannonResult): Rate => ({
  rate: r.requests.average,
  done: r['2xx'],
  p99: r.latency.p99,
  errors: r.errors + r.timeouts + r.non2xx,
})

/** Slices of equal length: the mean rate, the worst p99. */
function combine(slices: Rate[]): Rate {
  const sum = (f: (r: Rate) => number) => slices.reduce((a, r) => a + f(r), 0)
  return {
    rate: sum((r) => r.rate) / slices.length,
    done: sum((r) => r.done),
    p99: Math.max(...slices.map((r) => r.p99)),
    errors: sum((r) => r.errors),
  }
}

const idleSeconds = config.SESSION_IDLE_DAYS * 86_400
const tokenHash = hashToken(token)
let storeRecipient = 0
const storeOps = {
  touch: () =>
    touch(app.store, user.id, messageId, {
      status: 'OK',
      recipient_id: `s${++storeRecipient}`,
      sent_as_branded: false,
    }),
  user: async () => {
    const caller = await lookupSession(app.store, tokenHash, idleSeconds)
    if (!caller) throw new Error('the session is gone')
    return loadSubscription(app.store, caller.user.id)
  },
}

const rows: { name: string; bare: Rate; route: Rate; store: Rate }[] = []
for (const [name, request, op] of [
  ['POST touch', touchRequest, storeOps.touch],
  ['GET /api/v2/user', userRequest, storeOps.user],
] as const) {
  const slices: { bare: Rate; route: Rate; store: Rate }[] = []
  for (let i = 0; i < SLICES; i++) {
    const bareResult = fromCannon(await run(bareUrl, request))
    const routeResult = fromCannon(await run(apiUrl, request))
    slices.push({ bare: bareResult, route: routeResult, store: await storeRate(op) })
  }
  rows.push({
    name,
    bare: combine(slices.map((x) => x.bare)),
    route: combine(slices.map((x) => x.route)),
    store: combine(slices.map((x) => x.store)),
  })
}

const spent = (await app.inject({ url: '/api/v2/user/available-messages', headers: auth })).json() as {
  available_messages: number
}
console.log(
  `\nPagecast API load (${SECONDS}s per measurement in ${SLICES} slices taking turns, ${CONNECTIONS} connections, store: ${app.store.kind}, loopback)\n`,
)
console.log('target               measured     req/s    p99 ms  errors')
for (const r of rows) {
  for (const [label, res] of [
    ['bare http', r.bare],
    ['route', r.route],
    ['store alone', r.store],
  ] as const) {
    console.log(
      `${r.name.padEnd(20)} ${label.padEnd(11)} ${res.rate.toFixed(0).padStart(7)} ${String(res.p99).padStart(9)} ${String(res.errors).padStart(7)}`,
    )
  }
  console.log(
    `${''.padEnd(20)} ratios      route/store ${(r.route.rate / r.store.rate).toFixed(3)}   route/bare ${(r.route.rate / r.bare.rate).toFixed(3)}`,
  )
}
// Every touch answered 200 (the sample, the route's, the store's own) must have spent exactly one message.
const answered = 1 + rows[0]!.route.done + rows[0]!.store.done
console.log(
  `\ntouches recorded: ${100_000_000 - spent.available_messages}, touches answered: ${answered} (each a distinct recipient, each spending one message)`,
)

await app.close()
await new Promise((resolve) => bare.close(resolve))
rmSync(dataDir, { recursive: true, force: true })

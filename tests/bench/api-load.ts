/**
 * Load benchmark of the product API on loopback (`npx tsx tests/bench/api-load.ts`): `touch` (each request a
 * new recipient, so every one spends from the allowance in its transaction) and `GET /api/v2/user`, beside a
 * bare `node:http` server answering the same JSON bytes, in the same run. Prints requests per second, p99
 * latency and the ratio API / bare. About BENCH_SECONDS (default 10) per target; BENCH_CONNECTIONS
 * (default 20) clients. The store is PGlite in a throwaway folder, or PostgreSQL with BENCH_DATABASE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
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

const dataDir = mkdtempSync(join(tmpdir(), 'pagecast-bench-'))
const config = loadConfig({
  NODE_ENV: 'production',
  // Production refuses the public default secrets.
  FB_APP_SECRET: 'bench-app-secret',
  SANDBOX_WEBHOOK_SECRET: 'whsec_bench_secret',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  STATIC_DIR: join(dataDir, 'no-app'),
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
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
const bound = await app.inject({
  method: 'POST',
  url: '/api/v2/page',
  headers: auth,
  payload: { id: '1', name: 'Bench page', access_token: pageToken('1', user.facebook_id) },
})
if (bound.statusCode !== 200) throw new Error(`page registration failed: ${bound.body}`)
const created = await app.inject({
  method: 'POST',
  url: '/api/v2/messages',
  headers: auth,
  payload: {
    page_id: '1',
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
  return autocannon({ url, connections: CONNECTIONS, duration: SECONDS, requests: [request] })
}

const rows: { name: string; api: CannonResult; bare: CannonResult }[] = []
for (const [name, request] of [
  ['POST touch', touchRequest],
  ['GET /api/v2/user', userRequest],
] as const) {
  const apiResult = await run(apiUrl, request)
  const bareResult = await run(bareUrl, request)
  rows.push({ name, api: apiResult, bare: bareResult })
}

const spent = (await app.inject({ url: '/api/v2/user/available-messages', headers: auth })).json() as {
  available_messages: number
}
console.log(
  `\nPagecast API load (${SECONDS}s per target, ${CONNECTIONS} connections, store: ${app.store.kind}, loopback)\n`,
)
console.log('target               server   req/s     p99 ms   non-2xx  errors')
for (const r of rows) {
  for (const [label, res] of [
    ['api', r.api],
    ['bare', r.bare],
  ] as const) {
    console.log(
      `${r.name.padEnd(20)} ${label.padEnd(8)} ${res.requests.average.toFixed(0).padStart(7)} ${String(res.latency.p99).padStart(9)} ${String(res.non2xx).padStart(9)} ${String(res.errors + res.timeouts).padStart(7)}`,
    )
  }
  console.log(
    `${''.padEnd(20)} ratio    ${(r.api.requests.average / r.bare.requests.average).toFixed(3).padStart(7)}  (api req/s / bare req/s)`,
  )
}
console.log(
  `\ntouches recorded: ${100_000_000 - spent.available_messages} (each a distinct recipient, each spending one message)`,
)

await app.close()
await new Promise((resolve) => bare.close(resolve))
rmSync(dataDir, { recursive: true, force: true })

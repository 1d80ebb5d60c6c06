/**
 * The live event stream under idle load: 1,000 open `GET /api/v2/events` streams on one API instance (250
 * owners of one page, 4 tabs each), the instance's memory (RSS, heap) before and with them, and the delay
 * from a signed webhook POST to each stream's receipt of the message (p50, p99 over every stream and
 * webhook). Printed, not asserted: the figures depend on the machine. `DATABASE_URL` runs it on PostgreSQL.
 */
import { fork } from 'node:child_process'
import http from 'node:http'
import { join } from 'node:path'
import { callJson } from './call-json.ts'
import { openEventStreams, signedCustomerMessage } from './event-streams.ts'

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000)
const TABS = 4
const OWNERS = Math.ceil(STREAMS / TABS)
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 20)
const SECRET = 'bench-app-secret'
const PAGE = '990001'

interface Memory {
  rss: number
  heapUsed: number
}

const child = fork(join(import.meta.dirname, 'events-server.ts'), {
  execArgv: ['--import', 'tsx', '--expose-gc'],
  env: { ...process.env, BENCH_APP_SECRET: SECRET },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
})
process.on('exit', () => child.kill())
const replies: ((m: unknown) => void)[] = []
child.on('message', (m) => replies.shift()?.(m))
const ask = <T>(message?: string | object) =>
  new Promise<T>((resolve) => {
    replies.push(resolve as (m: unknown) => void)
    if (message) child.send(message)
  })

const { ready: port } = await ask<{ ready: string }>()
const base = `http://127.0.0.1:${port}`
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })

const call = (method: string, path: string, body?: unknown, token?: string): Promise<unknown> =>
  callJson(base, method, path, body, token)

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!

console.log(`  setting up ${OWNERS} owners of one page…`)
const tokens: string[] = []
for (let i = 0; i < OWNERS; i++) {
  const login = (await call('POST', '/api/v2/login', { access_token: `fb:${700000 + i}` })) as {
    data: { token: string }
  }
  tokens.push(login.data.token)
}
await ask({ bind: PAGE })

const idle = await ask<Memory>('memory')

/** mid -> when its webhook was posted; each receipt adds a sample. */
const posted = new Map<string, number>()
const samples: number[] = []
const requests = await openEventStreams(
  Array.from({ length: STREAMS }, (_, i) => ({ base, token: tokens[i % OWNERS]! })),
  (mid, now) => {
    const at = posted.get(mid)
    if (at !== undefined) samples.push(now - at)
  },
  agent,
)
const connected = requests.length
await new Promise((r) => setTimeout(r, 2_000))
const open = await ask<Memory>('memory')

for (let n = 0; n < WEBHOOKS; n++) {
  const mid = `m_bench_${n}`
  const { body, signature } = signedCustomerMessage(SECRET, PAGE, '5550', mid, `bench ${n}`)
  posted.set(mid, performance.now())
  const res = await fetch(`${base}/webhooks/messenger`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': signature,
    },
    body,
  })
  if (res.status !== 200) throw new Error(`webhook ${n}: ${res.status}`)
  await res.text()
  await new Promise((r) => setTimeout(r, 250))
}
const deadline = Date.now() + 30_000
while (samples.length < STREAMS * WEBHOOKS && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 100))
const busy = await ask<Memory>('memory')

console.log(`  ${connected} idle event streams on one instance (${OWNERS} owners x ${TABS} tabs)`)
if (!process.env.DATABASE_URL)
  console.log('  (RSS includes the embedded PGlite database; with DATABASE_URL it is the API instance alone)')
console.log(`  server memory without streams: RSS ${mb(idle.rss)}, heap ${mb(idle.heapUsed)}`)
console.log(`  server memory with the streams: RSS ${mb(open.rss)}, heap ${mb(open.heapUsed)}`)
console.log(
  `  per stream: RSS ${((open.rss - idle.rss) / STREAMS / 1024).toFixed(1)} KB, heap ${((open.heapUsed - idle.heapUsed) / STREAMS / 1024).toFixed(1)} KB`,
)
console.log(`  after ${WEBHOOKS} webhooks: RSS ${mb(busy.rss)}, heap ${mb(busy.heapUsed)}`)
console.log(
  `  webhook POST -> stream receipt: ${samples.length}/${STREAMS * WEBHOOKS} receipts, p50 ${pct(samples, 0.5).toFixed(1)} ms, p99 ${pct(samples, 0.99).toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms`,
)
for (const r of requests) r.destroy()
agent.destroy()
child.send('stop')
await new Promise((r) => child.once('exit', r))
if (samples.length < STREAMS * WEBHOOKS) {
  console.error('  some receipts never arrived')
  process.exit(1)
}

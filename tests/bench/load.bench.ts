/**
 * Load on the main API calls, loopback only and bounded in time: 100 concurrent clients for 30 seconds over
 * GET /api/v2/user, GET /api/v2/user/available-messages and a touch on a bulk message with a large allowance.
 * Prints requests per second, latency percentiles and status counts; fails on any 5xx or a crashed server.
 * `LOAD_SECONDS` / `LOAD_CONNECTIONS` change the bounds.
 */
import autocannon from 'autocannon'
import { startStack } from '../e2e/support/stack.ts'
import { signIn } from '../../scripts/lighthouse/session.ts'
import { buyLargePlan } from './allowance.ts'

const seconds = Number(process.env.LOAD_SECONDS ?? 30)
const connections = Number(process.env.LOAD_CONNECTIONS ?? 100)
const staticDir = process.env.STATIC_DIR ?? 'dist'

const stack = await startStack({ STATIC_DIR: staticDir, LOG_LEVEL: 'error' })
let failed = false
try {
  const session = await signIn(stack.url)
  const token = session.token
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`)
    return (await res.json()) as Record<string, unknown>
  }
  const large = await buyLargePlan(stack.url, token)
  console.log(
    large
      ? 'allowance: the largest plan, bought through the sandbox checkout'
      : 'allowance: the trial (the checkout failed), touches may answer 406 once it is spent',
  )
  await api('POST', '/api/v2/page', {
    id: session.pageId,
    name: 'Load test page',
    access_token: session.pageToken,
  })
  const message = await api('POST', '/api/v2/messages', {
    page_id: session.pageId,
    message_type_id: 1,
    message: 'Hello from the load test',
    label: '',
    total_messages: 1_000_000,
    branded_messages_amount: 0,
  })
  const touchPath = `/api/v2/messages/${String(message.id)}/touch`
  let recipient = 0

  console.log(`▶ ${connections} clients for ${seconds} s on ${stack.url} (loopback)`)
  const result = await autocannon({
    url: stack.url,
    connections,
    duration: seconds,
    timeout: 10,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    requests: [
      { method: 'GET', path: '/api/v2/user' },
      { method: 'GET', path: '/api/v2/user/available-messages' },
      {
        method: 'POST',
        path: touchPath,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          'content-type': 'application/json',
        },
        // Each touch records a new recipient, as a running bulk job does.
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ _method: 'PUT', status: 'OK', recipient_id: `r${++recipient}` }),
        }),
      },
    ],
  })

  const codes = Object.entries(result.statusCodeStats ?? {})
    .map(([code, s]) => `${code}: ${s.count}`)
    .join(', ')
  console.log(`requests/s   avg ${result.requests.average.toFixed(0)} (max ${result.requests.max})`)
  console.log(
    `latency ms   p50 ${result.latency.p50} · p90 ${result.latency.p90} · p99 ${result.latency.p99} · max ${result.latency.max}`,
  )
  console.log(
    `responses    2xx ${result['2xx']} · non-2xx ${result.non2xx} · 4xx ${result['4xx']} · 5xx ${result['5xx']} (${codes})`,
  )
  console.log(`errors       ${result.errors} (timeouts ${result.timeouts}); touches recorded ${recipient}`)
  const alive = await fetch(`${stack.url}/api/v2/health`).then(
    (r) => r.ok,
    () => false,
  )
  console.log(`server       ${alive ? 'still up' : 'DOWN'}`)
  if (result['5xx'] > 0 || !alive) failed = true
} finally {
  await stack.stop()
}
console.log(failed ? '✗ load test failed (5xx answers or the server went down)' : '✓ no 5xx, server up')
process.exit(failed ? 1 : 0)

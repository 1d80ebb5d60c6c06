/**
 * The server sender under load: 100 jobs handed over at once, sent by one instance (the job queue on the
 * embedded PGlite, the sandbox in the same process) with the pacing scaled down. Printed: the process's CPU
 * per delivered message (the queue, the sender, the touches, and the sandbox answering them: an upper bound
 * of the scheduler's own cost), the peak memory, and the wall time. Figures, not a timed test.
 */
import { loadavg } from 'node:os'
import { conversationCustomerMessageAt } from '../../src/core/policy/window.ts'
import { isInsideWindow } from '../../src/core/policy/messaging.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import { DEMO_SEED, pageTokenOf, signInDemo, startSandboxStack } from '../integration/support/stack.ts'

const JOBS = Number(process.env.BENCH_JOBS ?? 100)
const PER_JOB = Number(process.env.BENCH_RECIPIENTS ?? 10)
const SCALE = Number(process.env.BENCH_PACING_SCALE ?? 0.02)
const budgets = { cpu_ms_per_message: 20, peak_rss_mb: 600 }

const ids = demoPageIds(DEMO_SEED)
const stack = await startSandboxStack({
  env: { PACING_SCALE: String(SCALE), SERVER_SENDER_CONCURRENCY: String(JOBS) },
  sandbox: { paymentWebhookUrl: '/api/v2/payments/webhook', paymentWebhookSecret: 'whsec_bench' },
  app: { sandboxWebhookSecret: 'whsec_bench', serverSender: { settleMs: 200, pollingSeconds: 2 } },
})
const app = stack.app

const call = async (method: string, path: string, body?: unknown, token?: string) =>
  (await stack.json(method, path, body, token)).body

const { userToken, session: api } = await signInDemo(stack)
// Enough allowance for every message: the bench measures the sender, not the refusals.
await app.store.query('UPDATE subscriptions SET addons_messages = 1000000')
const pageToken = await pageTokenOf(stack, userToken, ids.small)
await call('POST', '/api/v2/page', { id: ids.small, name: 'Small', access_token: pageToken }, api)
const list = (
  await call(
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
  await call('PUT', `/api/v2/messages/${id}/recipients`, { recipients: audience }, api)
  jobIds.push(id)
}

let peakRss = 0
let peakHeap = 0
const sampler = setInterval(() => {
  const m = process.memoryUsage()
  peakRss = Math.max(peakRss, m.rss)
  peakHeap = Math.max(peakHeap, m.heapUsed)
}, 100)
const cpu0 = process.cpuUsage()
const t0 = Date.now()
for (const id of jobIds)
  await call('POST', `/api/v2/messages/${id}/handover`, { lease: 0, page_token: pageToken, cursor: 0 }, api)
for (;;) {
  const rows = await app.store.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM messages WHERE state = 'finished'",
  )
  if (rows[0]!.n >= JOBS) break
  if (Date.now() - t0 > 20 * 60_000) throw new Error('the jobs did not finish in 20 minutes')
  await new Promise((r) => setTimeout(r, 250))
}
const wall = Date.now() - t0
const cpu = process.cpuUsage(cpu0)
clearInterval(sampler)
const messages = JOBS * audience.length
const cpuMs = (cpu.user + cpu.system) / 1000
const sent = ((await call('GET', '/sandbox/sent')).data as { text: string }[]).filter((s) =>
  s.text.startsWith('Bench '),
).length
await stack.close()

const figures = {
  jobs: JOBS,
  messages,
  delivered_by_sandbox_log: sent,
  pacing_scale: SCALE,
  wall_s: Number((wall / 1000).toFixed(1)),
  cpu_ms_per_message: Number((cpuMs / messages).toFixed(2)),
  peak_rss_mb: Math.round(peakRss / 1e6),
  peak_heap_mb: Math.round(peakHeap / 1e6),
  load_1min: Number(loadavg()[0]!.toFixed(1)),
}
console.log('server sender, 100 concurrent jobs:', JSON.stringify(figures))
console.log(
  `  cpu per message ${figures.cpu_ms_per_message} ms (budget ${budgets.cpu_ms_per_message}), peak rss ${figures.peak_rss_mb} MB (budget ${budgets.peak_rss_mb})`,
)
if (sent !== messages) {
  console.error(`delivered ${sent} of ${messages}: a message was lost or sent twice`)
  process.exit(1)
}
process.exit(0)

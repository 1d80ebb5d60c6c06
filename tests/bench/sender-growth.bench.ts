/**
 * How the server sender's cost per message grows with its job: one job of 1,000, 10,000 and 50,000 recipients
 * (BENCH_GROWTH_SIZES) on the embedded database and, with TEST_DATABASE_URL, on PostgreSQL, each sent for
 * BENCH_GROWTH_WINDOW messages at its start and again near its end (the recipients before that point marked
 * sent, as a long send leaves them). Printed per size and position: the CPU of this process per message (the
 * sender, its statements, and the embedded database's WASM PostgreSQL, which runs in it), the wall time per
 * message, and the process's peak memory. The network answers at once and the pacing is scaled to nothing,
 * so what is measured is the sender's own work. Figures, not a timed test.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { SenderGraph } from '../../src/core/bulk/ports.ts'
import { runSlice, type ServerSenderDeps } from '../../src/server/bulk/server-sender.ts'
import { tokenBox } from '../../src/server/bulk/token-box.ts'
import {
  createBulkMessage,
  handToServer,
  type StoreKind,
  login,
  registerPage,
  setAllowance,
  startTestApp,
  TEST_DATABASE_URL,
} from '../../src/server/testing/harness.ts'

const sizes = (process.env.BENCH_GROWTH_SIZES ?? '1000,10000,50000').split(',').map(Number)
const WINDOW = Number(process.env.BENCH_GROWTH_WINDOW ?? 400)
const kinds: StoreKind[] = TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
if (!TEST_DATABASE_URL) console.log('  PostgreSQL: skipped (set TEST_DATABASE_URL to a PostgreSQL server)')

/**
 * A network that answers at once; after `left` sends it gives the job back to the device (the next claim finds
 * it no longer the server's), so a measured window ends without a failure of its own.
 */
class InstantNetwork implements SenderGraph {
  sent = 0
  left = 0
  constructor(private readonly pause: () => Promise<unknown>) {}
  async send(_page: string, _token: string, req: { recipientId: string }) {
    this.sent++
    if (--this.left === 0) await this.pause()
    return { recipient_id: req.recipientId, message_id: `m${this.sent}` }
  }
  async uploadAttachment() {
    return { attachment_id: 'a1' }
  }
  async messages() {
    return { data: [] }
  }
}

const peakRssMb = () =>
  Math.round(Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024)

interface Row {
  db: StoreKind
  recipients: number
  at: string
  cpu_ms_per_message: number
  wall_ms_per_message: number
  peak_rss_mb: number
}
const rows: Row[] = []

for (const kind of kinds) {
  const t = await startTestApp(kind, {}, { SERVER_SENDER: 'false' })
  const box = tokenBox(randomBytes(32))
  let page = 0
  for (const size of sizes) {
    const pageId = `${kind === 'pglite' ? 7 : 8}7${++page}`
    const who = await login(t.app, pageId)
    await registerPage(t.app, who, pageId)
    await setAllowance(t.app, pageId, { subscriptions_messages: size })
    const id = await createBulkMessage(t.app, who, pageId, 'Our new season starts today', size)
    for (let from = 0; from < size; from += 5_000) {
      const recipients = Array.from({ length: Math.min(5_000, size - from) }, (_, i) => ({
        recipient_id: `${pageId}-${from + i}`,
        name: `Customer ${from + i}`,
        conversation_id: `t-${pageId}-${from + i}`,
      }))
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/v2/messages/${id}/recipients`,
        headers: who.auth,
        payload: { recipients },
      })
      if (put.statusCode !== 200) throw new Error(`recipients: ${put.statusCode} ${put.body}`)
    }
    await handToServer(t.app, box, who, id)
    const network = new InstantNetwork(() =>
      t.app.store.query(`UPDATE messages SET sender = 'device' WHERE id = $1`, [id]),
    )
    const deps: ServerSenderDeps = {
      store: t.app.store,
      graph: network,
      box,
      notify: async () => undefined,
      now: Date.now,
      random: () => 0,
      sleep: async () => undefined,
      pacingScale: 0,
      settleMs: 0,
    }
    /** Sends the next WINDOW messages of the job and notes their cost. */
    const measure = async (at: string) => {
      await t.app.store.query(`UPDATE messages SET sender = 'server' WHERE id = $1`, [id])
      network.left = WINDOW
      const sent0 = network.sent
      const cpu0 = process.cpuUsage()
      const t0 = performance.now()
      while ((await runSlice(deps, id, 60_000)).kind === 'continue') {
        /* the next slice */
      }
      const cpu = process.cpuUsage(cpu0)
      const sent = network.sent - sent0
      if (sent !== WINDOW) throw new Error(`${sent} sent of a window of ${WINDOW}`)
      rows.push({
        db: kind,
        recipients: size,
        at,
        cpu_ms_per_message: round((cpu.user + cpu.system) / 1000 / sent),
        wall_ms_per_message: round((performance.now() - t0) / sent),
        peak_rss_mb: peakRssMb(),
      })
    }
    await measure('start')
    // Near the end: everyone but the last windows is sent, as hours of sending leave them.
    const done = size - 2 * WINDOW
    await t.app.store.query(
      `UPDATE message_recipients SET status = 'OK', touched_at = now()
        WHERE message_id = $1 AND status IS NULL AND position < $2`,
      [id, done],
    )
    await t.app.store.query('UPDATE messages SET ok_count = $2 WHERE id = $1', [id, done])
    await measure(done.toLocaleString('en'))
    console.log(`  ${kind} ${size.toLocaleString('en')}: measured`)
  }
  await t.close()
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}

console.log('\n  db        recipients  position   CPU ms/msg  wall ms/msg  peak RSS MB')
for (const r of rows)
  console.log(
    `  ${r.db.padEnd(9)} ${r.recipients.toLocaleString('en').padStart(10)}  ${r.at.padStart(8)}   ${String(r.cpu_ms_per_message).padStart(10)}  ${String(r.wall_ms_per_message).padStart(11)}  ${String(r.peak_rss_mb).padStart(11)}`,
  )
console.log(`figures ${JSON.stringify(rows)}`)
process.exit(0)

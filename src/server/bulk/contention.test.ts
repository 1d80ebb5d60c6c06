/**
 * Exactly once under contention, on a PostgreSQL server (the embedded database has one connection, so nothing
 * there runs side by side): hundreds of server-held jobs over many pages sent at once, every job of a page to
 * the same customers, while the customers' delivery and read receipts are applied in webhook batches by two
 * processors, as the network posts them. Nobody may be messaged twice in a job, nobody left out, every send
 * recorded, and no two sends to one page closer than the pacing floor, however many of its jobs send at once;
 * the receipts may not lock the sender's records out (a deadlock there once failed the write
 * after a send that went through, and the recipient was sent again).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SenderGraph } from '../../core/bulk/ports.ts'
import { SEND_DELAY_MIN_MS } from '../../core/constants/limits.ts'
import {
  createBulkMessage,
  handToServer,
  type LoggedIn,
  type TestApp,
  login,
  registerPage,
  setAllowance,
  startTestApp,
  TEST_DATABASE_URL,
} from '../testing/harness.ts'
import { applyWebhooks } from '../webhooks/process.ts'
import { runSlice, type ServerSenderDeps } from './server-sender.ts'
import { tokenBox } from './token-box.ts'

const PAGES = Number(process.env.CONTENTION_PAGES ?? 20)
const JOBS_PER_PAGE = Number(process.env.CONTENTION_JOBS_PER_PAGE ?? 10)
const RECIPIENTS = 10
/** Slices running at once (the queue's concurrency across instances). */
const RUNNERS = 40
const PACING_SCALE = 0.01
/** The floor between two sends to one page, less the millisecond the sender's clock counts in. */
const FLOOR_MS = SEND_DELAY_MIN_MS * PACING_SCALE - 1

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The network: records every send, answers after a short random delay, and posts receipts for it later. */
class BusyNetwork implements SenderGraph {
  readonly sends = new Map<string, number>()
  /** When each page's sends arrived, in order (ms, monotonic). */
  readonly arrivals = new Map<string, number[]>()
  readonly receipts: { pageId: string; customerId: string; kind: 'delivery' | 'read'; at: number }[] = []
  private n = 0
  async send(pageId: string, _token: string, req: { recipientId: string; text?: string }) {
    const arrived = this.arrivals.get(pageId) ?? []
    arrived.push(performance.now())
    this.arrivals.set(pageId, arrived)
    await sleep(Math.random() * 3)
    const key = `${pageId}/${req.text}/${req.recipientId}`
    this.sends.set(key, (this.sends.get(key) ?? 0) + 1)
    const at = Date.now()
    this.receipts.push({ pageId, customerId: req.recipientId, kind: 'delivery', at })
    this.receipts.push({ pageId, customerId: req.recipientId, kind: 'read', at: at + 1 })
    return { recipient_id: req.recipientId, message_id: `m${++this.n}` }
  }
  async uploadAttachment() {
    return { attachment_id: 'a1' }
  }
  async messages() {
    // No conversation shows the send: an uncertain recipient is sent again only after this read.
    return { data: [] }
  }
}

/** One webhook body per receipt, as the network posts them (a page's entry with one messaging event). */
function receiptBody(r: BusyNetwork['receipts'][number]): string {
  const event = {
    sender: { id: r.customerId },
    recipient: { id: r.pageId },
    timestamp: r.at,
    ...(r.kind === 'delivery' ? { delivery: { watermark: r.at } } : { read: { watermark: r.at } }),
  }
  return JSON.stringify({ object: 'page', entry: [{ id: r.pageId, time: r.at, messaging: [event] }] })
}

describe.skipIf(!TEST_DATABASE_URL)('exactly once under contention (PostgreSQL)', () => {
  let t: TestApp
  const box = tokenBox(randomBytes(32))
  beforeAll(async () => {
    t = await startTestApp('postgres', {}, { SERVER_SENDER: 'false' })
  })
  afterAll(() => t.close())

  async function pageWithJobs(pageId: string): Promise<{ who: LoggedIn; ids: string[] }> {
    const who = await login(t.app, pageId)
    await registerPage(t.app, who, pageId)
    await setAllowance(t.app, pageId, { subscriptions_messages: JOBS_PER_PAGE * RECIPIENTS })
    const ids: string[] = []
    for (let j = 0; j < JOBS_PER_PAGE; j++) {
      const id = await createBulkMessage(t.app, who, pageId, `Offer ${j}`, RECIPIENTS)
      const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({
        recipient_id: `${pageId}-c${i}`,
        name: `Customer ${i}`,
        conversation_id: `${pageId}-t${i}`,
      }))
      await t.app.inject({
        method: 'PUT',
        url: `/api/v2/messages/${id}/recipients`,
        headers: who.auth,
        payload: { recipients },
      })
      await handToServer(t.app, box, who, id)
      ids.push(id)
    }
    return { who, ids }
  }

  it(`sends ${PAGES * JOBS_PER_PAGE} jobs over ${PAGES} pages with receipts flowing: nobody twice, nobody left out`, async () => {
    const pages = await Promise.all(
      Array.from({ length: PAGES }, (_, p) => pageWithJobs(`9${String(p).padStart(4, '0')}`)),
    )
    const network = new BusyNetwork()
    const deps: ServerSenderDeps = {
      store: t.app.store,
      graph: network,
      box,
      notify: async () => undefined,
      now: Date.now,
      random: Math.random,
      sleep,
      pacingScale: PACING_SCALE,
      settleMs: 0,
    }
    const queue = pages.flatMap((p) => p.ids)
    let sending = true
    const failures: unknown[] = []
    // The receipts, applied in batches of up to 50 bodies in one transaction each, by two processors.
    const receiptLoop = async () => {
      while (sending || network.receipts.length > 0) {
        const batch = network.receipts.splice(0, 50)
        if (batch.length === 0) {
          await sleep(2)
          continue
        }
        const bodies = batch.map(receiptBody)
        await t.app.store
          .transaction((tx) => applyWebhooks(tx, bodies, { box, pageNames: new Map() }))
          .catch((err: unknown) => failures.push(err))
      }
    }
    const runner = async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        for (;;) {
          const outcome = await runSlice(deps, id, 2_000)
          if (outcome.kind === 'done') break
          await sleep(Math.max(0, outcome.at - Date.now()))
        }
      }
    }
    const receipts = [receiptLoop(), receiptLoop()]
    await Promise.all(Array.from({ length: RUNNERS }, runner))
    sending = false
    await Promise.all(receipts)

    const twice = [...network.sends].filter(([, n]) => n > 1)
    expect(twice).toEqual([])
    // One pacer per page across its jobs: no two sends to a page closer than the floor.
    const close = [...network.arrivals].flatMap(([pageId, at]) =>
      at
        .slice(1)
        .flatMap((t, i) => (t - at[i]! < FLOOR_MS ? [`${pageId}: ${(t - at[i]!).toFixed(2)} ms`] : [])),
    )
    expect(close).toEqual([])
    expect(network.sends.size).toBe(PAGES * JOBS_PER_PAGE * RECIPIENTS)
    const counts = await t.app.store.query<{ state: string; ok: number; attempts: number }>(
      `SELECT m.state, m.ok_count AS ok, (SELECT max(attempts) FROM message_recipients r WHERE r.message_id = m.id) AS attempts
           FROM messages m WHERE m.id = ANY($1::bigint[])`,
      [pages.flatMap((p) => p.ids)],
    )
    expect(counts.filter((c) => c.state !== 'finished' || c.ok !== RECIPIENTS)).toEqual([])
    // No receipt batch failed: none was chosen as a deadlock's victim either.
    expect(failures.map(String)).toEqual([])
    // Every receipt counted: each delivered send was read too.
    const receipted = await t.app.store.query<{ d: number; r: number }>(
      `SELECT count(delivered_at)::int AS d, count(read_at)::int AS r FROM message_recipients
          WHERE message_id = ANY($1::bigint[])`,
      [pages.flatMap((p) => p.ids)],
    )
    expect(receipted[0]).toEqual({
      d: PAGES * JOBS_PER_PAGE * RECIPIENTS,
      r: PAGES * JOBS_PER_PAGE * RECIPIENTS,
    })
  }, 300_000)
})

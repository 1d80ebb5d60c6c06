/**
 * Stored webhook bodies taken up as a batch and applied as sets: duplicates, an echo and a customer message of
 * one conversation, receipts beside the message they follow, a poisoned event among good ones, the number of
 * statements a batch costs, and what the owners hear, the same as when the bodies are applied one by one.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { BROADCAST_METADATA } from '../../core/contracts/conversation-states.ts'
import { tokenBox } from '../bulk/token-box.ts'
import type { Queryable, Store } from '../db/store.ts'
import { processPendingWebhooks, storeWebhook } from '../repo/webhook-events.ts'
import { countingStore, onEveryStore, openTestStore } from '../testing/harness.ts'
import type { CustomerMessageNotice } from './notice.ts'
import { applyWebhook, applyWebhooks, WebhookProcessor } from './process.ts'

const box = tokenBox(randomBytes(32))
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined }

type Item = Record<string, unknown>
const body = (pageId: string, ...messaging: Item[]) => ({
  object: 'page',
  entry: [{ id: pageId, time: 1, messaging }],
})
const fromCustomer = (pageId: string, customer: string, mid: string, at: number, text = mid): Item => ({
  sender: { id: customer },
  recipient: { id: pageId },
  timestamp: at,
  message: { mid, text },
})
const echo = (pageId: string, customer: string, mid: string, at: number, metadata?: string): Item => ({
  sender: { id: pageId },
  recipient: { id: customer },
  timestamp: at,
  message: { mid, text: mid, is_echo: true, ...(metadata ? { metadata } : {}) },
})
const receipt = (pageId: string, customer: string, kind: 'delivery' | 'read', watermark: number): Item => ({
  sender: { id: customer },
  recipient: { id: pageId },
  timestamp: watermark,
  ...(kind === 'delivery' ? { delivery: { watermark } } : { read: { watermark } }),
})

onEveryStore('Webhook bodies applied as sets', (kind) => {
  let store: Store
  let close: () => Promise<void>
  let pageSeq = 0
  let page: string

  beforeAll(async () => {
    ;({ store, close } = await openTestStore(kind))
    await store.query(
      `INSERT INTO users (facebook_id, name) VALUES ('batch-owner-1', 'Ana'), ('batch-owner-2', 'Ben')`,
    )
  })
  afterAll(() => close())

  /** A page of its own for each test, owned by both users. */
  const newPage = async () => {
    const id = `77${++pageSeq}`
    await store.query(`INSERT INTO pages (id, name) VALUES ($1, 'Batch page')`, [id])
    await store.query(`INSERT INTO user_pages (user_id, page_id) SELECT id, $1 FROM users`, [id])
    return id
  }
  beforeEach(async () => {
    page = await newPage()
  })

  const stored = async (...bodies: unknown[]) => {
    for (const b of bodies) await storeWebhook(store, Buffer.from(JSON.stringify(b)))
  }
  /** Takes up every pending body in one batch, as the processor does; answers the notices. */
  const drain = async (through: Store = store) => {
    const notices: CustomerMessageNotice[] = []
    const processor = new WebhookProcessor(through, silent, box, (n) => void notices.push(n))
    await processor.drain()
    return notices
  }
  /** What the page's first owner heard, in order. */
  const heard = async (pageId: string) =>
    store.query<{ type: string; data: Item }>(
      `SELECT type, data FROM owner_events
        WHERE user_id = (SELECT min(id) FROM users) AND data->>'pageId' = $1 ORDER BY id`,
      [pageId],
    )
  const state = (pageId: string, customer: string) =>
    store
      .query<Item>(
        `SELECT customer_at, customer_text, customer_mid, unread, answered_at, broadcast_at, broadcast_text
          FROM conversation_states WHERE page_id = $1 AND customer_id = $2`,
        [pageId, customer],
      )
      .then((rows) => rows[0])

  it('stores a mid once however often the batch and the store hold it, and publishes it once', async () => {
    await stored(body(page, fromCustomer(page, 'c1', 'm_dup_old', 1_000)))
    await drain()
    const before = (await heard(page)).length
    await stored(
      body(page, fromCustomer(page, 'c1', 'm_dup_new', 2_000)),
      // The same message again, in another body (another time of the entry, other bytes).
      { ...body(page, fromCustomer(page, 'c1', 'm_dup_new', 2_000)), again: 1 },
      body(page, fromCustomer(page, 'c1', 'm_dup_old', 1_000), fromCustomer(page, 'c1', 'm_dup_new', 2_000)),
    )
    const notices = await drain()

    expect(notices.map((n) => n.mid)).toEqual(['m_dup_new'])
    expect(
      await store.query(`SELECT mid FROM page_messages WHERE page_id = $1 ORDER BY mid`, [page]),
    ).toEqual([{ mid: 'm_dup_new' }, { mid: 'm_dup_old' }])
    const events = (await heard(page)).slice(before)
    expect(events.map((e) => e.type)).toEqual(['conversation_state', 'message'])
    expect(await state(page, 'c1')).toMatchObject({ unread: 2, customer_mid: 'm_dup_new' })
  })

  it('applies an echo and the customer’s messages around it in their order, each state as it left it', async () => {
    await stored(
      body(page, fromCustomer(page, 'c2', 'm_ask', 10_000)),
      body(page, echo(page, 'c2', 'm_answer', 20_000)),
      body(page, fromCustomer(page, 'c2', 'm_again', 30_000)),
      body(page, echo(page, 'c2', 'm_sale', 40_000, BROADCAST_METADATA)),
      // A late customer message, older than the answer: it changes nothing newer.
      body(page, fromCustomer(page, 'c2', 'm_late', 15_000)),
    )
    const notices = await drain()

    expect(notices.map((n) => n.mid)).toEqual(['m_ask', 'm_again', 'm_late'])
    const events = await heard(page)
    expect(events.map((e) => [e.type, e.data.mid ?? e.data.unread])).toEqual([
      ['conversation_state', 1],
      ['message', 'm_ask'],
      ['conversation_state', 0],
      ['message', 'm_answer'],
      ['conversation_state', 1],
      ['message', 'm_again'],
      ['conversation_state', 1],
      ['message', 'm_sale'],
      ['conversation_state', 1],
      ['message', 'm_late'],
    ])
    expect(events.filter((e) => e.type === 'conversation_state').map((e) => e.data.needsReply)).toEqual([
      true,
      false,
      true,
      true,
      true,
    ])
    expect(events.find((e) => e.data.mid === 'm_sale')?.data).toMatchObject({
      fromPage: true,
      broadcast: true,
    })
    expect(await state(page, 'c2')).toMatchObject({
      customer_mid: 'm_again',
      customer_text: 'm_again',
      unread: 1,
      broadcast_text: 'm_sale',
    })
  })

  it('moves the watermarks of receipts taken with the message they follow, forward only', async () => {
    await stored(
      body(page, fromCustomer(page, 'c3', 'm_seen', 50_000)),
      body(page, receipt(page, 'c3', 'delivery', 60_000)),
      body(page, receipt(page, 'c3', 'read', 70_000), receipt(page, 'c3', 'delivery', 55_000)),
      body(page, receipt(page, 'c3', 'read', 65_000)),
    )
    await drain()

    expect((await heard(page)).map((e) => [e.type, e.data.mid ?? e.data.watermark ?? null])).toEqual([
      ['conversation_state', null],
      ['message', 'm_seen'],
      ['delivery', new Date(60_000).toISOString()],
      ['read', new Date(70_000).toISOString()],
    ])
    const [watermarks] = await store.query<{ d: string; r: string }>(
      `SELECT delivered_watermark AS d, read_watermark AS r FROM page_receipts WHERE page_id = $1`,
      [page],
    )
    expect([new Date(watermarks!.d).getTime(), new Date(watermarks!.r).getTime()]).toEqual([60_000, 70_000])
  })

  it('leaves aside only an event the store refuses, keeping the rest of its body and of its batch', async () => {
    // A time JavaScript can write but PostgreSQL cannot store.
    const poisoned = { ...fromCustomer(page, 'c4', 'm_poison', 0), timestamp: -8.64e15 }
    await stored(
      body(page, fromCustomer(page, 'c4', 'm_before', 1_000)),
      body(
        page,
        fromCustomer(page, 'c5', 'm_beside', 1_000),
        poisoned,
        receipt(page, 'c5', 'delivery', 2_000),
      ),
      body(page, fromCustomer(page, 'c4', 'm_after', 3_000)),
    )
    const notices = await drain()

    expect(notices.map((n) => n.mid)).toEqual(['m_before', 'm_beside', 'm_after'])
    expect(
      await store.query(`SELECT mid FROM page_messages WHERE page_id = $1 ORDER BY mid`, [page]),
    ).toEqual([{ mid: 'm_after' }, { mid: 'm_before' }, { mid: 'm_beside' }])
    expect((await heard(page)).map((e) => e.type)).toEqual([
      'conversation_state',
      'message',
      'conversation_state',
      'message',
      'delivery',
      'conversation_state',
      'message',
    ])
    const rows = await store.query<{ done: boolean; attempts: number; last_error: string | null }>(
      `SELECT processed_at IS NOT NULL AS done, attempts, last_error FROM webhook_events
        WHERE body LIKE '%m_before%' OR body LIKE '%m_beside%' OR body LIKE '%m_after%' ORDER BY id`,
    )
    expect(rows.map((r) => [r.done, r.attempts])).toEqual([
      [true, 1],
      [true, 1],
      [true, 1],
    ])
    expect(rows.map((r) => r.last_error === null)).toEqual([true, false, true])
    expect(rows[1]!.last_error).toMatch(/^1 event left aside: entry 0 event 1 \(/)
  })

  it('costs a batch a few statements, not a few per message', async () => {
    const { store: through, statements } = countingStore(store)
    // 48 bodies: 24 customers, each a message, then their receipts-free second message and a page answer.
    const bodies = Array.from({ length: 48 }, (_, i) => {
      const customer = `c_many_${i % 24}`
      return i % 3 === 2
        ? body(page, echo(page, customer, `m_many_${i}`, 1_000 + i))
        : body(page, fromCustomer(page, customer, `m_many_${i}`, 1_000 + i))
    })
    await stored(...bodies)
    const notices = await drain(through)

    expect(notices).toHaveLength(32)
    expect(
      await store.query(`SELECT count(*)::int AS n FROM page_messages WHERE page_id = $1`, [page]),
    ).toEqual([{ n: 48 }])
    expect((await heard(page)).filter((e) => e.type === 'message')).toHaveLength(48)
    // The bodies, the messages, a statement per message of a conversation for the states (two here), the
    // owners, the names, the page's name, the events with their announcement and the bodies marked done; then
    // the look for more.
    expect(statements.length).toBeLessThanOrEqual(10)
    expect(statements.filter((s) => s.includes('pg_notify'))).toHaveLength(1)
    expect(statements.filter((s) => /INSERT INTO owner_events/.test(s))).toHaveLength(1)
  })

  it('gives each body to one instance only, however many take up the same database at once', async () => {
    const mids = Array.from({ length: 120 }, (_, i) => `m_shared_${i}`)
    await stored(
      ...mids.map((mid, i) => body(page, fromCustomer(page, `c_shared_${i % 30}`, mid, 1_000 + i))),
    )
    const [a, b, c] = await Promise.all([drain(), drain(), drain()])

    expect([...a!, ...b!, ...c!].map((n) => n.mid).sort()).toEqual([...mids].sort())
    const events = await heard(page)
    expect(events.filter((e) => e.type === 'message')).toHaveLength(120)
    expect(events.filter((e) => e.type === 'conversation_state')).toHaveLength(120)
    expect(
      await store.query(`SELECT sum(unread)::int AS n FROM conversation_states WHERE page_id = $1`, [page]),
    ).toEqual([{ n: 120 }])
  })

  it('leaves a batch cut short before its commit to be taken up again, whole and once', async () => {
    await stored(
      body(page, fromCustomer(page, 'c6', 'm_cut_1', 1_000)),
      body(page, fromCustomer(page, 'c6', 'm_cut_2', 2_000), receipt(page, 'c6', 'read', 2_500)),
    )
    // The instance stops after applying the batch, before the commit: nothing of it is kept.
    const cut: Store = {
      ...store,
      transaction: (fn) =>
        store.transaction(async (tx) => {
          await fn(tx)
          throw new Error('stopped before the commit')
        }),
    }
    await expect(drain(cut)).rejects.toThrow('stopped before the commit')
    expect(await heard(page)).toEqual([])
    expect(await store.query(`SELECT mid FROM page_messages WHERE page_id = $1`, [page])).toEqual([])

    const notices = await drain()
    expect(notices.map((n) => n.mid)).toEqual(['m_cut_1', 'm_cut_2'])
    expect((await heard(page)).map((e) => e.type)).toEqual([
      'conversation_state',
      'message',
      'conversation_state',
      'message',
      'read',
    ])
  })

  it('tells the owners the same, in the same order, as when each body is applied alone', async () => {
    const twin = await newPage()
    const scenario = (p: string) => [
      body(p, fromCustomer(p, 'x1', `${p}_a`, 10_000), fromCustomer(p, 'x2', `${p}_b`, 11_000)),
      body(p, echo(p, 'x1', `${p}_c`, 12_000), receipt(p, 'x1', 'delivery', 12_500)),
      body(p, fromCustomer(p, 'x1', `${p}_a`, 10_000)),
      body(p, receipt(p, 'x1', 'read', 13_000), fromCustomer(p, 'x1', `${p}_d`, 14_000)),
      body(p, echo(p, 'x2', `${p}_e`, 15_000, BROADCAST_METADATA), fromCustomer(p, 'x2', `${p}_f`, 9_000)),
      body(p, receipt(p, 'x1', 'delivery', 12_000), echo(p, 'x1', `${p}_g`, 16_000)),
    ]
    const options = { maxAttempts: 5, skip: new Set<number>(), batch: 50 }
    const pageNames = new Map<string, string | null>()
    const one = (tx: Queryable, b: string) => applyWebhook(tx, b, { box, pageNames })
    const noteOf = () => null

    await stored(...scenario(page))
    const refused: unknown[] = []
    const all = (tx: Queryable, bodies: readonly string[]) =>
      applyWebhooks(tx, bodies, { box, pageNames }).catch((err: unknown) => {
        refused.push(err)
        throw err
      })
    await processPendingWebhooks(store, options, { all, one }, noteOf)
    // Taken as sets, not by the fallback.
    expect(refused).toEqual([])
    await stored(...scenario(twin))
    await processPendingWebhooks(
      store,
      options,
      {
        all: async () => {
          throw new Error('one by one')
        },
        one,
      },
      noteOf,
    )

    const told = async (p: string) =>
      JSON.parse(JSON.stringify(await heard(p)).replaceAll(p, 'PAGE')) as { type: string; data: Item }[]
    const together = await told(page)
    expect(together.length).toBeGreaterThan(10)
    expect(together).toEqual(await told(twin))
  })
})

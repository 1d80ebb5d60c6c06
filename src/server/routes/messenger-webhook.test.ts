/**
 * `/webhooks/messenger`: the handshake, signatures (good, bad, missing, replayed, duplicated), storing before
 * processing, deduplication of messages and watermarks, echoes, opt-ins, bulk receipts and the new-message hook.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tokenBox } from '../bulk/token-box.ts'
import type { CustomerMessageNotice } from '../context.ts'
import { pruneWebhookEvents, storeWebhook, webhookWriter } from '../repo/webhook-events.ts'
import { WebhookProcessor } from '../webhooks/process.ts'
import {
  type LoggedIn,
  type TestApp,
  countingStore,
  login,
  onEveryStore,
  registerPage,
  startTestApp,
} from '../testing/harness.ts'

const SECRET = 'webhook-test-secret'
const VERIFY = 'verify-token-for-tests'
const PAGE = '682498302938465'
const PSID = '1254477777772919'

const fixture = (name: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../../../tests/fixtures/graph/webhooks/${name}.json`, import.meta.url), 'utf8'),
    ) as { body: unknown }
  ).body

const sign = (raw: string, secret = SECRET) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`

interface Row {
  [key: string]: unknown
}

onEveryStore('Messenger webhooks', (kind) => {
  let t: TestApp
  let owner: LoggedIn
  const logs: string[] = []
  const notices: CustomerMessageNotice[] = []

  beforeAll(async () => {
    t = await startTestApp(
      kind,
      {
        logStream: { write: (line) => void logs.push(line) },
        onCustomerMessage: (n) => void notices.push(n),
      },
      { FB_APP_SECRET: SECRET, WEBHOOK_VERIFY_TOKEN: VERIFY, LOG_LEVEL: 'info' },
    )
    owner = await login(t.app, '6101')
    await registerPage(t.app, owner, PAGE)
  })
  afterAll(() => t.close())

  const post = async (body: unknown, signature?: string | null) => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body)
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/messenger',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        ...(signature === null ? {} : { 'x-hub-signature-256': signature ?? sign(raw) }),
      },
    })
    await t.app.webhooks.drain()
    return res
  }
  const q = <T extends Row>(sql: string, params: (string | number)[] = []) =>
    t.app.store.query<T>(sql, params)
  const events = (type: string) =>
    q<{ data: Row }>('SELECT data FROM owner_events WHERE type = $1 ORDER BY id', [type]).then((r) =>
      r.map((x) => x.data),
    )

  describe('handshake', () => {
    it('answers the challenge as text for the configured verify token', async () => {
      const res = await t.app.inject({
        url: `/webhooks/messenger?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`,
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/plain/)
      expect(res.body).toBe('1158201444')
    })

    it.each([
      ['a wrong token', `hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`],
      ['another mode', `hub.mode=unsubscribe&hub.verify_token=${VERIFY}&hub.challenge=1`],
      ['no challenge', `hub.mode=subscribe&hub.verify_token=${VERIFY}`],
      ['nothing', ''],
    ])('refuses %s with 403', async (_what, query) => {
      const res = await t.app.inject({ url: `/webhooks/messenger?${query}` })
      expect(res.statusCode).toBe(403)
      expect(res.body).not.toContain('1')
    })
  })

  describe('signatures', () => {
    it('refuse a bad or missing signature with 403, store nothing and log a line without the body', async () => {
      const body = { object: 'page', entry: [{ id: PAGE, messaging: [] }], secret_words: 'do-not-log-me' }
      const raw = JSON.stringify(body)
      for (const signature of [sign(raw, 'another-secret'), null, 'sha256=xyz', sign(`${raw} `)]) {
        const res = await post(raw, signature)
        expect(res.statusCode).toBe(403)
      }
      expect(await q('SELECT id FROM webhook_events')).toEqual([])
      const refusals = logs.filter((l) => l.includes('messenger webhook refused'))
      expect(refusals.length).toBe(4)
      expect(refusals.some((l) => l.includes('"reason":"missing"'))).toBe(true)
      expect(refusals.some((l) => l.includes('"reason":"mismatch"'))).toBe(true)
      expect(logs.join('\n')).not.toContain('do-not-log-me')
    })

    it('store a good body before answering 200, then process it', async () => {
      const res = await post(fixture('message-text'))
      expect(res.statusCode).toBe(200)
      expect(await q('SELECT processed_at IS NOT NULL AS done FROM webhook_events')).toEqual([{ done: true }])
      expect(
        await q('SELECT customer_id, from_page, text FROM page_messages WHERE mid = $1', [
          'mid.1457764197618:41d102a3e1ae206a38',
        ]),
      ).toEqual([{ customer_id: PSID, from_page: false, text: 'hello, world!' }])
      const [message] = await events('message')
      expect(message).toEqual({
        pageId: PAGE,
        customerId: PSID,
        mid: 'mid.1457764197618:41d102a3e1ae206a38',
        text: 'hello, world!',
        attachments: [],
        createdTime: new Date(1458692752478).toISOString(),
        fromPage: false,
      })
      expect(notices).toEqual([
        expect.objectContaining({
          userIds: [owner.user.id],
          pageId: PAGE,
          pageName: `Page ${PAGE}`,
          customerId: PSID,
          mid: 'mid.1457764197618:41d102a3e1ae206a38',
          text: 'hello, world!',
        }),
      ])
    })

    it('take a replayed body (same bytes, same signature) and a duplicated message once', async () => {
      const before = (await events('message')).length
      const again = await post(fixture('message-text'))
      expect(again.statusCode).toBe(200)
      // The same message in another body (a redelivery batched differently).
      const body = fixture('message-text') as { entry: { time: number }[] }
      body.entry[0]!.time += 5
      expect((await post(body)).statusCode).toBe(200)
      expect((await events('message')).length).toBe(before)
      expect(await q('SELECT count(*)::int AS n FROM webhook_events')).toEqual([{ n: 2 }])
      expect(notices).toHaveLength(1)
    })
  })

  it('keeps echoes as the page’s own messages, with attachments, and tells no hook of them', async () => {
    await post(fixture('message-echo'))
    await post(fixture('message-attachment'))
    const all = await events('message')
    expect(all.find((e) => e.mid === 'mid.1457764197618:41d102a3e1ae206a39')).toMatchObject({
      fromPage: true,
      customerId: PSID,
      text: 'Thanks, we ship tomorrow.',
    })
    expect(all.find((e) => e.mid === 'mid.$cAAJdkrCd2ORnva8ErFhjGm0X_Q_c')).toMatchObject({
      fromPage: false,
      text: null,
      attachments: [{ type: 'image', url: 'https://scontent.xx.fbcdn.net/v/t1.15752-9/photo.jpg' }],
    })
    expect(notices.map((n) => n.mid)).not.toContain('mid.1457764197618:41d102a3e1ae206a39')
  })

  it('moves delivery and read watermarks forward only, so repeats and older ones change nothing', async () => {
    const receipt = (kind: 'delivery' | 'read', watermark: number) => ({
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: watermark + 1,
          messaging: [
            {
              sender: { id: PSID },
              recipient: { id: PAGE },
              timestamp: watermark + 1,
              ...(kind === 'delivery' ? { delivery: { watermark } } : { read: { watermark } }),
            },
          ],
        },
      ],
    })
    await post(fixture('message-delivery'))
    await post(fixture('message-read'))
    await post(receipt('delivery', 1458668856253)) // the same watermark again
    await post(receipt('delivery', 1458668000000)) // an older one, arriving late
    await post(receipt('read', 1458668000000))
    expect(await events('delivery')).toEqual([
      {
        pageId: PAGE,
        customerId: PSID,
        watermark: new Date(1458668856253).toISOString(),
        mids: ['mid.1458668856218:ed81099e15d3f4f233'],
      },
    ])
    expect(await events('read')).toEqual([
      { pageId: PAGE, customerId: PSID, watermark: new Date(1458668856253).toISOString() },
    ])
    await post(receipt('read', 1458668999999))
    expect(await events('read')).toHaveLength(2)
    expect(
      await q<Row>('SELECT delivered_watermark, read_watermark FROM page_receipts WHERE customer_id = $1', [
        PSID,
      ]),
    ).toEqual([{ delivered_watermark: new Date(1458668856253), read_watermark: new Date(1458668999999) }])
  })

  it('stores opt-ins once', async () => {
    await post(fixture('messaging-optin'))
    await post({ ...(fixture('messaging-optin') as object), extra: 1 })
    const rows = await q<Row>(
      'SELECT customer_id, type, payload, notification_messages_token FROM messaging_optins',
    )
    expect(rows).toEqual([
      {
        customer_id: PSID,
        type: 'notification_messages',
        payload: 'weekly-offers',
        notification_messages_token: '6910581826549999999',
      },
    ])
  })

  it('processes a body stored before a stop when the processor runs again', async () => {
    const body = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: Date.now(),
          messaging: [
            {
              sender: { id: '42' },
              recipient: { id: PAGE },
              timestamp: Date.now(),
              message: { mid: 'm_kept', text: 'kept' },
            },
          ],
        },
      ],
    })
    await q(`INSERT INTO webhook_events (body_sha256, body) VALUES ('x-stored-before-a-crash', $1)`, [body])
    await t.app.webhooks.drain()
    expect(await q('SELECT text FROM page_messages WHERE mid = $1', ['m_kept'])).toEqual([{ text: 'kept' }])
  })

  it('forgets processed bodies after a week, keeping what they changed', async () => {
    await q(
      `UPDATE webhook_events SET processed_at = now() - interval '8 days' WHERE body LIKE '%hello, world!%'`,
    )
    await pruneWebhookEvents(t.app.store)
    expect(await q(`SELECT id FROM webhook_events WHERE body LIKE '%hello, world!%'`)).toEqual([])
    expect(
      await q('SELECT text FROM page_messages WHERE mid = $1', ['mid.1457764197618:41d102a3e1ae206a38']),
    ).toEqual([{ text: 'hello, world!' }])
  })

  it('keeps a body whose processing fails, with its error, for a later run, without blocking the others', async () => {
    const message = (mid: string, text: string) => ({
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: 1,
          messaging: [
            { sender: { id: '43' }, recipient: { id: PAGE }, timestamp: 1, message: { mid, text } },
          ],
        },
      ],
    })
    // The store cannot take messages for now: the body waits, the receipts behind it do not.
    await q('ALTER TABLE page_messages RENAME TO page_messages_away')
    try {
      expect((await post(message('m_later', 'later'))).statusCode).toBe(200)
      const [row] = await q<Row>(
        `SELECT processed_at, attempts, last_error FROM webhook_events WHERE body LIKE '%m_later%'`,
      )
      expect(row).toMatchObject({ processed_at: null, attempts: 1 })
      expect(row!.last_error).toEqual(expect.any(String))
      await post(fixture('message-read'))
      expect(await q(`SELECT count(*)::int AS n FROM webhook_events WHERE processed_at IS NULL`)).toEqual([
        { n: 1 },
      ])
    } finally {
      await q('ALTER TABLE page_messages_away RENAME TO page_messages')
    }
    await t.app.webhooks.drain()
    expect(await q('SELECT text FROM page_messages WHERE mid = $1', ['m_later'])).toEqual([{ text: 'later' }])
  })

  it('leaves aside only the events no store could take, keeping the others of the same body at once', async () => {
    const before = notices.length
    const item = (mid: string, extra: Record<string, unknown>) => ({
      sender: { id: '44' },
      recipient: { id: PAGE },
      timestamp: 2,
      message: { mid, text: 'fine' },
      ...extra,
    })
    const body = {
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: 2,
          messaging: [
            item('m_good_1', {}),
            item('m_nul', { message: { mid: 'm_nul', text: 'a\u0000b' } }),
            item('m_surrogate', { message: { mid: 'm_surrogate', text: 'a\ud800b' } }),
            {
              sender: { id: '44' },
              recipient: { id: PAGE },
              timestamp: 2,
              optin: { type: 'x', payload: '\udc00' },
            },
            item('m_deep', {
              message: {
                mid: 'm_deep',
                text: 'deep',
                extra: JSON.parse(`${'['.repeat(3000)}${']'.repeat(3000)}`),
              },
            }),
            item('m_time', { timestamp: 1e300 }),
            { sender: 'not an object' },
          ],
        },
        { id: PAGE, time: 2, messaging: [item('m_good_2', {})] },
      ],
    }
    expect((await post(body)).statusCode).toBe(200)
    expect(
      (await q<{ mid: string }>(`SELECT mid FROM page_messages WHERE customer_id = '44' ORDER BY mid`)).map(
        (r) => r.mid,
      ),
    ).toEqual(['m_good_1', 'm_good_2'])
    expect(notices.slice(before).map((n) => n.mid)).toEqual(['m_good_1', 'm_good_2'])
    // Taken once: done, never to be retried, the events left aside named on the row and in the log.
    const [row] = await q<Row>(
      `SELECT processed_at IS NOT NULL AS done, attempts, last_error FROM webhook_events WHERE body LIKE '%m_good_1%'`,
    )
    expect(row).toMatchObject({ done: true, attempts: 1 })
    expect(row!.last_error).toMatch(/6 events? left aside/)
    const rejected = logs.filter((l) => l.includes('messenger webhook: an event was left aside'))
    expect(rejected).toHaveLength(6)
    expect(rejected.some((l) => l.includes('NUL'))).toBe(true)
    expect(rejected.some((l) => l.includes('surrogate'))).toBe(true)
    expect(rejected.every((l) => l.includes('"pageId":"' + PAGE + '"'))).toBe(true)
  })

  it('counts bulk recipients delivered and read from the watermarks at or after their send', async () => {
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      t.app.inject({ method, url, headers: owner.auth, ...(payload ? { payload: payload as string } : {}) })
    const created = await call('POST', '/api/v2/messages', {
      page_id: PAGE,
      message_type_id: 3,
      message: 'Sale',
      label: '["all_labels"]',
      tag: 'CONFIRMED_EVENT_UPDATE',
      total_messages: 3,
      branded_messages_amount: 0,
    })
    const id = created.json().id as string
    for (const r of ['b1', 'b2', 'b3']) {
      const touched = await call('PUT', `/api/v2/messages/${id}/touch`, {
        _method: 'PUT',
        status: r === 'b3' ? 'NG' : 'OK',
        recipient_id: r,
      })
      expect(touched.statusCode, touched.body).toBe(200)
    }
    const now = Date.now()
    const receipt = (psid: string, kind: 'delivery' | 'read', watermark: number) => ({
      object: 'page',
      entry: [
        {
          id: PAGE,
          time: watermark,
          messaging: [
            {
              sender: { id: psid },
              recipient: { id: PAGE },
              ...(kind === 'delivery' ? { delivery: { watermark } } : { read: { watermark } }),
            },
          ],
        },
      ],
    })
    await post(receipt('b1', 'delivery', now - 3_600_000)) // before the send: covers nothing
    await post(receipt('b1', 'delivery', now + 1000))
    await post(receipt('b2', 'read', now + 2000)) // a read is a delivery too
    await post(receipt('b3', 'read', now + 2000)) // not sent (NG)
    await post(receipt('b1', 'delivery', now + 3000)) // already counted
    const list = (await call('GET', '/api/v2/messages')).json().data as Row[]
    expect(list.find((m) => m.id === id)).toMatchObject({ delivered_count: 2, read_count: 1 })
    const receipts = (await events('bulk_receipts')).filter((e) => e.messageId === id)
    expect(receipts).toEqual([
      { pageId: PAGE, messageId: id, delivered: 1, read: 0 },
      { pageId: PAGE, messageId: id, delivered: 2, read: 1 },
    ])
  })

  it('takes up a busy page’s bodies together: a few statements each, and one notice to the instances', async () => {
    const { store, statements } = countingStore(t.app.store)
    const heard: string[] = []
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined }
    const processor = new WebhookProcessor(
      store,
      silent,
      tokenBox(randomBytes(32)),
      (n) => void heard.push(n.mid),
    )
    const mids = Array.from({ length: 20 }, (_, i) => `m_busy_${i}`)
    for (const [i, mid] of mids.entries()) {
      const body = {
        object: 'page',
        entry: [
          {
            id: PAGE,
            time: 3,
            messaging: [
              {
                sender: { id: String(4500 + (i % 4)) },
                recipient: { id: PAGE },
                timestamp: 3 + i,
                message: { mid, text: `busy ${i}` },
              },
            ],
          },
        ],
      }
      await storeWebhook(t.app.store, Buffer.from(JSON.stringify(body)))
    }
    await processor.drain()

    expect(heard).toEqual(mids)
    expect(
      (await q<{ n: number }>(`SELECT count(*)::int AS n FROM page_messages WHERE mid LIKE 'm_busy_%'`))[0],
    ).toEqual({ n: 20 })
    expect((await events('message')).filter((e) => String(e.mid).startsWith('m_busy_'))).toHaveLength(20)
    expect(statements.filter((s) => s.includes('pg_notify'))).toHaveLength(1)
    // Applied as sets: a statement per message of a conversation for the states (five here), the rest once.
    expect(statements.length).toBeLessThanOrEqual(5 + 10)
  })

  it('stores the bodies posted together in one statement, each known again by its bytes', async () => {
    const inserts: string[] = []
    const store = t.app.store
    const write = webhookWriter({
      query: (sql, params) => (inserts.push(sql), store.query(sql, params)),
      exec: (sql) => store.exec(sql),
    })
    const body = (n: number) => Buffer.from(JSON.stringify({ object: 'page', entry: [], together: n }))
    await storeWebhook(store, body(0))
    const fresh = await Promise.all([body(1), body(2), body(1), body(0), body(3)].map((b) => write(b)))
    expect(fresh).toEqual([true, true, false, false, true])
    expect(inserts).toHaveLength(1)
    expect(await q(`SELECT count(*)::int AS n FROM webhook_events WHERE body LIKE '%"together"%'`)).toEqual([
      { n: 4 },
    ])

    // Posted at once, answered 200 each, stored once each and all taken up.
    const posts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post({
          object: 'page',
          entry: [
            {
              id: PAGE,
              time: 4,
              messaging: [
                {
                  sender: { id: '46' },
                  recipient: { id: PAGE },
                  timestamp: 4 + i,
                  message: { mid: `m_at_once_${i % 6}`, text: 'at once' },
                },
              ],
            },
          ],
        }),
      ),
    )
    expect(posts.map((r) => r.statusCode)).toEqual(Array(12).fill(200))
    await t.app.webhooks.drain()
    expect(await q(`SELECT count(*)::int AS n FROM page_messages WHERE mid LIKE 'm_at_once_%'`)).toEqual([
      { n: 6 },
    ])
    expect(
      await q(
        `SELECT count(*)::int AS n FROM webhook_events WHERE body LIKE '%m_at_once_%' AND processed_at IS NULL`,
      ),
    ).toEqual([{ n: 0 }])
  })
})

/**
 * Pushes from the API to the sandbox's push service, as `npm start` composes them: the Web Push request
 * (aes128gcm body, VAPID JWT for the push service's origin, TTL, Urgency, Topic), no push while a tab is
 * visible, and a subscription the push service answers 410 or 404 for removed.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sandboxPlugin } from '../../src/sandbox/app.ts'
import type { RecordedPush } from '../../src/sandbox/push/service.ts'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import {
  type CustomerMessageEvent,
  MESSAGE_TTL_SECONDS,
  conversationTopic,
  messagePayload,
} from '../../src/server/push/notify.ts'
import { fakeGraph, login } from '../../src/server/testing/harness.ts'
import { inProcessFetch } from './in-process-fetch.ts'

const BASE = 'http://pagecast.test'
const p256dh = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM'
const auth = 'tBHItJI5svbpez7KI4CCXg'

describe('pushes to the sandbox push service', () => {
  let app: FastifyInstance
  const visible = new Set<string>()
  const logs: string[] = []
  let dana: string
  let sam: string

  const event = (over: Partial<CustomerMessageEvent> = {}): CustomerMessageEvent => ({
    userIds: [dana],
    pageId: '540022345878660',
    pageName: 'Kanha Bakery',
    customerId: '7001',
    customerName: 'Sokha',
    mid: 'm_1',
    text: 'Are you open today?',
    createdTime: new Date().toISOString(),
    ...over,
  })
  const received = async (): Promise<RecordedPush[]> =>
    ((await app.inject({ url: '/sandbox/push' })).json() as { data: RecordedPush[] }).data
  const subscribe = async (token: string, id: string) => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/v2/push/subscription',
      headers: { authorization: `Bearer ${token}` },
      payload: { endpoint: `${BASE}/sandbox/push/${id}`, keys: { p256dh, auth } },
    })
    expect(res.statusCode).toBe(200)
  }
  const endpoints = async () =>
    (
      await app.store.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions ORDER BY endpoint')
    ).map((r) => r.endpoint.replace(`${BASE}/sandbox/push/`, ''))
  let publicKey: string

  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'info',
      STATIC_DIR: '/nonexistent',
      PUBLIC_URL: BASE,
      VAPID_SUBJECT: 'mailto:ops@pagecast.test',
    })
    const fetch = inProcessFetch(() => app)
    app = await buildApp({
      config,
      graph: fakeGraph,
      fetch,
      mounts: [
        {
          prefix: '/sandbox',
          plugin: sandboxPlugin({
            policy: 'current',
            seed: 20260427,
            appId: config.FB_APP_ID,
            appSecret: config.FB_APP_SECRET,
            publicUrl: BASE,
            liveMs: 0,
          }),
        },
      ],
      anyVisibleTab: async (userId) => visible.has(userId),
      logStream: { write: (line) => void logs.push(line) },
    })
    const d = await login(app, '801')
    const s = await login(app, '802')
    dana = d.user.id
    sam = s.user.id
    await subscribe(d.token, 'dana-laptop')
    await subscribe(s.token, 'sam-phone')
    const keyRes = await app.inject({ url: '/api/v2/push/key', headers: d.auth })
    publicKey = (keyRes.json() as { publicKey: string }).publicKey
  })
  afterAll(() => app.close())
  beforeEach(async () => {
    visible.clear()
    logs.length = 0
    await app.inject({ method: 'POST', url: '/sandbox/reset' })
  })

  it('is a Web Push request with the conversation topic, high urgency, a TTL and a VAPID JWT', async () => {
    const outcome = await app.push.notifyCustomerMessage(event({ userIds: [dana, sam] }))
    expect(outcome).toEqual({ sent: 2, removed: 0, failed: 0 })
    const pushes = await received()
    expect(pushes.map((p) => p.endpointId).sort()).toEqual(['dana-laptop', 'sam-phone'])
    for (const p of pushes) {
      expect(p).toMatchObject({
        ttl: MESSAGE_TTL_SECONDS,
        urgency: 'high',
        topic: conversationTopic('540022345878660', '7001'),
        contentEncoding: 'aes128gcm',
        audience: BASE,
        subject: 'mailto:ops@pagecast.test',
        vapidKey: publicKey,
      })
      expect(p.size).toBeGreaterThan(86) // the aes128gcm header alone is 86 bytes
      expect(p.expires! * 1000).toBeGreaterThan(Date.now())
    }
    expect(conversationTopic('540022345878660', '7001')).toMatch(/^[A-Za-z0-9_-]{32}$/)
  })

  it('is not sent to a user with a visible tab', async () => {
    visible.add(dana)
    expect(await app.push.notifyCustomerMessage(event({ userIds: [dana, sam] }))).toEqual({
      sent: 1,
      removed: 0,
      failed: 0,
    })
    expect((await received()).map((p) => p.endpointId)).toEqual(['sam-phone'])
  })

  it('removes a subscription the push service answers 410 or 404 for, and logs other refusals without the endpoint', async () => {
    const l = await login(app, '803')
    await subscribe(l.token, 'lina-gone')
    const l2 = await login(app, '803')
    await subscribe(l2.token, 'lina-lost')
    const l3 = await login(app, '803')
    await subscribe(l3.token, 'lina-broken')
    await app.inject({ method: 'POST', url: '/sandbox/push/lina-gone/answer', payload: { status: 410 } })
    await app.inject({ method: 'POST', url: '/sandbox/push/lina-lost/answer', payload: { status: 404 } })
    await app.inject({ method: 'POST', url: '/sandbox/push/lina-broken/answer', payload: { status: 500 } })
    const outcome = await app.push.notifyCustomerMessage(event({ userIds: [l.user.id] }))
    expect(outcome).toEqual({ sent: 0, removed: 2, failed: 1 })
    expect(await endpoints()).toEqual(['dana-laptop', 'lina-broken', 'sam-phone'])
    const refusal = logs.find((line) => line.includes('push refused'))
    expect(refusal).toContain(BASE)
    // (The sandbox's own request log names its URLs; the sender's lines never do.)
    const senderLines = logs.filter((line) => line.includes('"push":'))
    expect(senderLines).toHaveLength(3)
    expect(senderLines.join('\n')).not.toMatch(/lina-|sandbox\/push/)
  })

  it('sends other notices to every device of one user', async () => {
    expect(
      await app.push.notifyUser(sam, { type: 'notice', title: 'Sent', body: '30 of 30', url: '/' }),
    ).toEqual({
      sent: 1,
      removed: 0,
      failed: 0,
    })
    expect((await received()).map((p) => p.endpointId)).toEqual(['sam-phone'])
  })
})

describe('the notification of a message', () => {
  const base: CustomerMessageEvent = {
    userIds: ['1'],
    pageId: 'p1',
    pageName: 'Kanha Bakery',
    customerId: 'c1',
    customerName: 'Sokha',
    mid: 'm',
    text: 'Hello',
    createdTime: '2026-11-23T10:00:00.000Z',
  }

  it('names the customer and the page, one per conversation, and opens the conversation', () => {
    expect(messagePayload(base, 'en', false)).toEqual({
      type: 'message',
      pageId: 'p1',
      customerId: 'c1',
      title: 'Sokha',
      body: 'Hello',
      pageName: 'Kanha Bakery',
      url: '/p1?chat=%22c1%22',
      tag: 'conv:p1:c1',
      lang: 'en',
      dir: 'ltr',
    })
  })

  it('hides the text in the device’s language when the owner asks', () => {
    expect(messagePayload(base, 'es', true).body).toBe('Mensaje nuevo')
    expect(messagePayload(base, 'ur', true)).toMatchObject({ body: 'نیا پیغام', dir: 'rtl', lang: 'ur' })
    expect(messagePayload({ ...base, text: null }, 'km', false).body).toBe('បានផ្ញើឯកសារភ្ជាប់')
    expect(messagePayload(base, 'xx', true)).toMatchObject({ body: 'New message', lang: 'en' })
  })

  it('keeps a long text short', () => {
    const body = messagePayload({ ...base, text: 'x'.repeat(2000) }, 'en', false).body
    expect([...body].length).toBeLessThanOrEqual(180)
    expect(body.endsWith('…')).toBe(true)
  })
})

/**
 * A customer's message, from the sandbox's signed webhook through the API to the sandbox's push service: a
 * push to the owner's device while no tab of the app is visible, none while one is, and the device's
 * subscription deleted once the push service answers 410.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../../src/shared/constants/limits.ts'
import { sandboxPlugin } from '../../src/sandbox/app.ts'
import type { RecordedPush } from '../../src/sandbox/push/service.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { conversationTopic } from '../../src/server/push/notify.ts'
import { freePort } from '../e2e/support/stack.ts'

const SEED = 20260427
const ids = demoPageIds(SEED)

describe('pushes for the customer messages webhooks bring', () => {
  let app: FastifyInstance
  let base: string
  let session: string

  const json = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(session ? { authorization: `Bearer ${session}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of known answers
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, any> }
  }
  const pushes = async () => (await json('GET', '/sandbox/push/owner-phone')).body.data as RecordedPush[]
  const customerWrites = async (text: string) =>
    (await json('POST', '/sandbox/customer-message', { page_id: ids.small, text })).body as {
      customer_id: string
      mid: string
    }
  /** Waits until the webhook with `mid` is stored and processed. */
  const processed = async (mid: string) => {
    await expect
      .poll(
        async () => {
          await app.webhooks.drain()
          const rows = await app.store
            .query('SELECT 1 FROM page_messages WHERE mid = $1', [mid])
            .catch(() => [])
          return rows.length
        },
        { timeout: 15_000 },
      )
      .toBe(1)
  }

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      STATIC_DIR: '/nonexistent',
      PUBLIC_URL: base,
      PORT: String(port),
    })
    const sandbox = sandboxPlugin({
      policy: 'current',
      seed: SEED,
      appId: config.FB_APP_ID,
      appSecret: config.FB_APP_SECRET,
      publicUrl: base,
      liveMs: 0,
      messengerWebhookUrl: '/webhooks/messenger',
    })
    app = await buildApp({ config, mounts: [{ prefix: '/sandbox', plugin: sandbox }] })
    await app.listen({ host: '127.0.0.1', port })
    const userToken = (
      await json('POST', '/sandbox/token', { user: 'demo', scopes: [...REQUIRED_PERMISSIONS] })
    ).body.access_token as string
    session = (await json('POST', '/api/v2/login', { access_token: userToken })).body.data.token
    const accounts = await fetch(
      `${base}/sandbox/graph/v25.0/me/accounts?fields=id,access_token&access_token=${userToken}`,
    )
    const pageToken = ((await accounts.json()) as { data: { id: string; access_token: string }[] }).data.find(
      (p) => p.id === ids.small,
    )!.access_token
    expect(
      (await json('POST', '/api/v2/page', { id: ids.small, name: 'Kanha Bakery', access_token: pageToken }))
        .status,
    ).toBe(200)
    const subscribed = await json('PUT', '/api/v2/push/subscription', {
      endpoint: `${base}/sandbox/push/owner-phone`,
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
    })
    expect(subscribed.status).toBe(200)
  })
  afterAll(async () => {
    await app?.close()
  })

  it('pushes to the owner’s device while no tab is visible', async () => {
    const sent = await customerWrites('Do you deliver on Sunday?')
    await expect.poll(pushes, { timeout: 15_000 }).toHaveLength(1)
    expect((await pushes())[0]).toMatchObject({
      urgency: 'high',
      topic: conversationTopic(ids.small, sent.customer_id),
      contentEncoding: 'aes128gcm',
      audience: base,
    })
  })

  it('does not push while a tab of the app is visible', async () => {
    const before = (await pushes()).length
    const tab = crypto.randomUUID()
    expect((await json('POST', '/api/v2/presence', { tab, visible: true })).status).toBeLessThan(300)
    const sent = await customerWrites('Still there?')
    await processed(sent.mid)
    // The push is sent after the processing; give a push every chance to arrive before saying there is none.
    const second = await customerWrites('Hello?')
    await processed(second.mid)
    await json('POST', '/api/v2/presence', { tab, visible: false })
    const third = await customerWrites('Anyone?')
    await expect.poll(async () => (await pushes()).length, { timeout: 15_000 }).toBe(before + 1)
    expect((await pushes()).at(-1)!.topic).toBe(conversationTopic(ids.small, third.customer_id))
  })

  it('deletes the subscription once the push service says it is gone', async () => {
    await json('POST', '/sandbox/push/owner-phone/answer', { status: 410 })
    await customerWrites('Last one')
    await expect
      .poll(async () => (await app.store.query('SELECT endpoint FROM push_subscriptions')).length, {
        timeout: 15_000,
      })
      .toBe(0)
  })
})

/**
 * A customer's message, from the sandbox's signed webhook through the API to the sandbox's push service: a
 * push to the owner's device while no tab of the app is visible, none while one is, and the device's
 * subscription deleted once the push service answers 410.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RecordedPush } from '../../src/sandbox/push/service.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import { conversationTopic } from '../../src/server/push/notify.ts'
import { DEMO_SEED, signInDemoWithPage, startSandboxStack, type SandboxStack } from './support/stack.ts'

const ids = demoPageIds(DEMO_SEED)

describe('pushes for the customer messages webhooks bring', () => {
  let stack: SandboxStack
  let app: SandboxStack['app']
  let base: string
  let session: string

  const json = (method: string, path: string, body?: unknown) => stack.json(method, path, body, session)
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
    stack = await startSandboxStack({ sandbox: { messengerWebhookUrl: '/webhooks/messenger' } })
    app = stack.app
    base = stack.base
    const signedIn = await signInDemoWithPage(stack, ids.small)
    session = signedIn.session
    const pageToken = signedIn.pageToken
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
    await stack?.close()
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

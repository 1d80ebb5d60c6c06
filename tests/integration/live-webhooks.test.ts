/**
 * The sandbox's signed webhooks into the API and out of its event stream: a connected page is subscribed, a
 * customer's message, the echo of a send and its receipts reach the owner's stream; faults (wrong signature,
 * duplicates, reordering, drops) leave the stored state exactly right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import { openSse, type SseReader } from '../../src/server/testing/sse.ts'
import { DEMO_SEED, signInDemoWithPage, startSandboxStack, type SandboxStack } from './support/stack.ts'

describe('sandbox webhooks through the API to the event stream', () => {
  let stack: SandboxStack
  let app: SandboxStack['app']
  let base: string
  let session: string
  let pageToken: string
  let stream: SseReader
  const ids = demoPageIds(DEMO_SEED)

  const json = (method: string, path: string, body?: unknown, token?: string) =>
    stack.json(method, path, body, token)
  const faults = (patch: Record<string, unknown>) => json('POST', '/sandbox/faults', patch)
  const customerWrites = async (text: string, customer?: { page_id: string; customer_id: string }) =>
    (await json('POST', '/sandbox/customer-message', { ...customer, page_id: ids.small, text })).body as {
      page_id: string
      customer_id: string
      mid: string
    }
  const messages = () =>
    stream.frames
      .filter((f) => f.event === 'message')
      .map((f) => f.data as { mid: string } & Record<string, unknown>)

  beforeAll(async () => {
    stack = await startSandboxStack({ sandbox: { messengerWebhookUrl: '/webhooks/messenger' } })
    app = stack.app
    base = stack.base
    ;({ session, pageToken } = await signInDemoWithPage(stack, ids.small))
    const connected = await json(
      'POST',
      '/api/v2/page',
      { id: ids.small, name: 'Small', access_token: pageToken },
      session,
    )
    expect(connected.status).toBe(200)
    expect(connected.body.data.webhooks).toEqual({ ok: true })
    stream = await openSse(`${base}/api/v2/events?since=0`, { authorization: `Bearer ${session}` })
    await stream.waitFor((f) => f.event === 'page_subscription')
  })
  afterAll(async () => {
    stream?.close()
    await stack?.close()
  })

  it('subscribes the page with the fields asked for, and the network refuses a bad token', async () => {
    const inspected = (await json('GET', '/sandbox/webhooks')).body
    expect(inspected.subscribed[ids.small]).toEqual([
      'messages',
      'message_echoes',
      'message_deliveries',
      'message_reads',
      'messaging_optins',
      'message_template_status_update',
    ])
    const refused = await fetch(
      `${base}/sandbox/graph/v25.0/${ids.small}/subscribed_apps?subscribed_fields=messages&access_token=nope`,
      {
        method: 'POST',
      },
    )
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(190)
  })

  it("brings a customer's message to the owner's stream", async () => {
    const sent = await customerWrites('Is the blue one in stock?')
    await expect
      .poll(() => messages().find((m) => m.mid === sent.mid), { timeout: 10_000 })
      .toMatchObject({
        pageId: ids.small,
        customerId: sent.customer_id,
        text: 'Is the blue one in stock?',
        fromPage: false,
        attachments: [],
      })
  })

  it('brings the echo of a send and then its delivery and read', async () => {
    await faults({ webhook_receipt_share: 1, webhook_read_share: 1, webhook_receipt_delay_ms: 50 })
    const customer = await customerWrites('Hello?')
    const res = await fetch(`${base}/sandbox/graph/v25.0/me/messages?access_token=${pageToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        recipient: { id: customer.customer_id },
        messaging_type: 'RESPONSE',
        message: { text: 'Yes!' },
      }),
    })
    const { message_id } = (await res.json()) as { message_id: string }
    await expect
      .poll(() => messages().find((m) => m.mid === message_id), { timeout: 10_000 })
      .toMatchObject({
        fromPage: true,
        customerId: customer.customer_id,
        text: 'Yes!',
      })
    const [delivery] = await stream.waitFor(
      (f) => f.event === 'delivery' && (f.data as { customerId: string }).customerId === customer.customer_id,
    )
    expect(delivery!.data).toMatchObject({ pageId: ids.small, mids: [message_id] })
    await stream.waitFor(
      (f) => f.event === 'read' && (f.data as { customerId: string }).customerId === customer.customer_id,
    )
    await faults({ webhook_receipt_share: 0 })
  })

  it('refuses wrongly signed webhooks, and duplicates, reordering and drops leave the stored state right', async () => {
    await faults({ webhook_bad_signature: true })
    const forged = await customerWrites('forged?')
    await expect
      .poll(
        async () =>
          (await json('GET', '/sandbox/webhooks')).body.log.find(
            (l: { mid?: string }) => l.mid === forged.mid,
          )?.status,
        {
          timeout: 10_000,
        },
      )
      .toBe(403)
    await faults({ webhook_bad_signature: false, webhook_duplicate: 1, webhook_reorder: true })
    const first = await customerWrites('one')
    const second = await customerWrites('two')
    await expect
      .poll(() => messages().filter((m) => [first.mid, second.mid].includes(m.mid)).length, {
        timeout: 10_000,
      })
      .toBe(2)
    await faults({ webhook_duplicate: 0, webhook_reorder: false, webhook_drop: 1 })
    const dropped = await customerWrites('lost')
    await faults({ webhook_drop: 0 })
    const after = await customerWrites('after the drop')
    await expect.poll(() => messages().some((m) => m.mid === after.mid), { timeout: 10_000 }).toBe(true)
    const stored = await app.store.query<{ mid: string }>(
      'SELECT mid FROM page_messages WHERE page_id = $1',
      [ids.small],
    )
    const mids = stored.map((r) => r.mid)
    expect(mids).toEqual(expect.arrayContaining([first.mid, second.mid, after.mid]))
    expect(mids).not.toContain(forged.mid)
    expect(mids).not.toContain(dropped.mid)
    // Each message is stored and streamed exactly once, whatever the duplicates.
    expect(new Set(mids).size).toBe(mids.length)
    const streamed = messages().map((m) => m.mid)
    expect(new Set(streamed).size).toBe(streamed.length)
  })
})

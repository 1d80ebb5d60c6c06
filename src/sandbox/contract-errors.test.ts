import { describe, expect, it } from 'vitest'
import type { SendRequest } from '../core/graph/types.ts'
import { sandboxForFile, type TestSandbox } from './test-support.ts'
import type { DemoConversation } from './state/demo.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR
let sb: TestSandbox

sandboxForFile((started) => (sb = started))

const sendable = (c: DemoConversation) => c.canReply && !c.blocked
const inWindow = (c: DemoConversation) => sendable(c) && Date.now() - c.lastCustomerMs < 20 * HOUR
const text = (c: DemoConversation, extra: Partial<SendRequest> = {}): SendRequest => ({
  recipientId: c.customer.id,
  messagingType: 'RESPONSE',
  text: 'Hi',
  ...extra,
})

async function sendLarge(pick: (c: DemoConversation) => boolean, extra: Partial<SendRequest> = {}) {
  const token = await sb.pageToken(sb.ids.large)
  const conv = sb.seeded(sb.ids.large).find(pick)
  if (!conv) throw new Error('no such conversation in the demo data')
  return sb.client.send(sb.ids.large, token, text(conv, extra))
}

describe('every error class, produced by the sandbox policy and faults', () => {
  it('a retired tag under the current policy is a configuration error (100)', async () => {
    await expect(
      sendLarge(inWindow, { messagingType: 'MESSAGE_TAG', tag: 'CONFIRMED_EVENT_UPDATE' }),
    ).rejects.toMatchObject({
      kind: 'config',
      code: 100,
      message: '(#100) Invalid parameter',
      httpStatus: 400,
    })
  })

  it('RESPONSE outside the 24-hour window is outside_window (10/2018278)', async () => {
    await expect(
      sendLarge((c) => sendable(c) && Date.now() - c.lastCustomerMs > 2 * DAY),
    ).rejects.toMatchObject({
      kind: 'outside_window',
      code: 10,
      subcode: 2018278,
    })
  })

  it('HUMAN_AGENT without the feature is a configuration error', async () => {
    await expect(
      sendLarge(inWindow, { messagingType: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' }),
    ).rejects.toMatchObject({ kind: 'config', code: 10 })
  })

  it('a customer who blocked the page is recipient_gone (551/1545041)', async () => {
    await expect(sendLarge((c) => c.blocked)).rejects.toMatchObject({
      kind: 'recipient_gone',
      code: 551,
      subcode: 1545041,
    })
  })

  it('a conversation that cannot be replied to is recipient_gone (200/1545041)', async () => {
    await expect(sendLarge((c) => !c.canReply && !c.blocked)).rejects.toMatchObject({
      kind: 'recipient_gone',
      code: 200,
      subcode: 1545041,
    })
  })

  it('an unknown recipient is recipient_gone (100/2018001)', async () => {
    const token = await sb.pageToken(sb.ids.small)
    await expect(
      sb.client.send(sb.ids.small, token, { recipientId: '123', messagingType: 'RESPONSE', text: 'x' }),
    ).rejects.toMatchObject({
      kind: 'recipient_gone',
      code: 100,
      subcode: 2018001,
    })
  })

  it('text and attachment together, or text over 2000 characters, are configuration errors', async () => {
    await expect(
      sendLarge(inWindow, { attachment: { url: 'https://example.com/a.png' } }),
    ).rejects.toMatchObject({ kind: 'config', code: 100 })
    await expect(sendLarge(inWindow, { text: 'x'.repeat(2001) })).rejects.toMatchObject({
      kind: 'config',
      code: 100,
    })
    await expect(sendLarge(inWindow, { text: 'x'.repeat(2000) })).resolves.toMatchObject({
      message_id: expect.any(String),
    })
  })

  it('rate limiting is throttle (613)', async () => {
    await sb.post('/faults', { rate_limit: true })
    await expect(sendLarge(inWindow)).rejects.toMatchObject({ kind: 'throttle', code: 613 })
  })

  it('a failure rate of 1 makes every send transient (code 2 or 1, HTTP 500)', async () => {
    await sb.post('/faults', { fail_rate: 1 })
    for (let i = 0; i < 4; i++) {
      const err: unknown = await sendLarge(inWindow).catch((e: unknown) => e)
      expect(err).toMatchObject({ kind: 'transient', httpStatus: 500 })
    }
  })

  it('a failure rate below 1 is spread evenly over the sends, so no two in a row fail at 0.2', async () => {
    await sb.post('/faults', { fail_rate: 0.2 })
    const outcomes: string[] = []
    for (let i = 0; i < 15; i++) {
      const err: unknown = await sendLarge(inWindow).then(
        () => undefined,
        (e: unknown) => e,
      )
      if (err) expect(err).toMatchObject({ kind: 'transient', httpStatus: 500 })
      outcomes.push(err ? 'x' : '.')
    }
    expect(outcomes.join('')).toBe('....x....x....x')
    // Setting the faults again starts the count again.
    await sb.post('/faults', { fail_rate: 0.5 })
    const again: string[] = []
    for (let i = 0; i < 4; i++)
      again.push(
        await sendLarge(inWindow).then(
          () => '.',
          () => 'x',
        ),
      )
    expect(again.join('')).toBe('.x.x')
  })

  it('offline cuts every Graph request at the socket: network', async () => {
    const token = await sb.userToken()
    await sb.post('/faults', { offline: true })
    await expect(sb.client.me(token)).rejects.toMatchObject({ kind: 'network', httpStatus: 0 })
    await sb.post('/faults', { offline: false })
    await expect(sb.client.me(token)).resolves.toMatchObject({ name: 'Dana Demo' })
  })

  it('adds latency to Graph requests', async () => {
    const token = await sb.userToken()
    await sb.post('/faults', { latency_ms: 300 })
    const t = Date.now()
    await sb.client.me(token)
    expect(Date.now() - t).toBeGreaterThanOrEqual(280)
  })

  it('an expired page token is auth (190); the accounts list then hands out a new one', async () => {
    const user = await sb.userToken()
    const token = await sb.pageToken(sb.ids.small, user)
    await sb.post('/tokens/expire', { page_id: sb.ids.small })
    await expect(sb.client.conversations(sb.ids.small, token)).rejects.toMatchObject({
      kind: 'auth',
      code: 190,
      subcode: 463,
    })
    const fresh = await sb.pageToken(sb.ids.small, user)
    expect(fresh).not.toBe(token)
    await expect(sb.client.conversations(sb.ids.small, fresh)).resolves.toMatchObject({
      data: expect.any(Array),
    })
  })

  it('a revoked page is listed without a token until its role is given back', async () => {
    const user = await sb.userToken()
    const listed = async () =>
      (await sb.client.accounts(user)).data.find((a) => a.id === sb.ids.small)?.access_token
    const before = await sb.pageToken(sb.ids.small, user)
    await sb.post('/tokens/expire', { page_id: sb.ids.small, revoke: true })
    expect(await listed()).toBeUndefined()
    // The role is gone, not the session: the network's error for a lost role, with no expiry subcode.
    const refused = await sb.client.conversations(sb.ids.small, before).catch((err: unknown) => err)
    expect(refused).toMatchObject({ kind: 'auth', code: 190, subcode: undefined })
    expect((refused as Error).message).toMatch(/administrator of the page/)
    await sb.post('/tokens/expire', { page_id: sb.ids.small, revoke: false })
    expect(await listed()).toMatch(/^EAAP/)
  })

  it('unknown tokens and user tokens on page endpoints are auth (190)', async () => {
    await expect(sb.client.me('EAASnope')).rejects.toMatchObject({ kind: 'auth', code: 190 })
    await expect(sb.client.conversations(sb.ids.small, await sb.userToken())).rejects.toMatchObject({
      kind: 'auth',
      code: 190,
    })
  })

  it('sending without pages_messaging is auth (230); reading without the read permissions is config (200)', async () => {
    const user = await sb.userToken(
      'demo',
      ['pages_show_list', 'pages_read_engagement', 'pages_manage_metadata'],
      ['pages_messaging'],
    )
    const token = await sb.pageToken(sb.ids.small, user)
    const conv = sb.seeded(sb.ids.small).find(inWindow)!
    await expect(sb.client.send(sb.ids.small, token, text(conv))).rejects.toMatchObject({
      kind: 'auth',
      code: 230,
    })
    const noRead = await sb.pageToken(
      sb.ids.small,
      await sb.userToken('demo', ['pages_show_list', 'pages_messaging']),
    )
    await expect(sb.client.conversations(sb.ids.small, noRead)).rejects.toMatchObject({
      kind: 'config',
      code: 200,
    })
  })

  it('reset clears faults and the sent log', async () => {
    await sendLarge(inWindow)
    await sb.post('/faults', { rate_limit: true })
    await sb.post('/reset')
    expect(((await (await fetch(`${sb.url}/sent`)).json()) as { data: unknown[] }).data).toEqual([])
    await expect(sendLarge(inWindow)).resolves.toBeTruthy()
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DemoConversation } from '../state/demo.ts'
import { DAY, HOUR, startMarketingSandbox, type MarketingSandbox } from './test-support.ts'

let sb: MarketingSandbox
let token: string
beforeAll(async () => {
  sb = await startMarketingSandbox()
})
afterAll(async () => {
  await sb.app.close()
})
beforeEach(async () => {
  vi.useRealTimers()
  await sb.post('/reset')
  token = await sb.marketingPageToken(sb.ids.large)
})

const reachable = (c: DemoConversation) => c.canReply && !c.blocked
const inside = (n = 0) =>
  sb.seeded(sb.ids.large).filter((c) => reachable(c) && Date.now() - c.lastCustomerMs < 20 * HOUR)[n]!
const outside = () =>
  sb.seeded(sb.ids.large).find((c) => reachable(c) && Date.now() - c.lastCustomerMs > 2 * DAY)!

function request(psid: string, payload: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return sb.graph('POST', '/me/messages', token, {
    recipient: { id: psid },
    messaging_type: 'RESPONSE',
    message: {
      attachment: {
        type: 'template',
        payload: {
          template_type: 'notification_messages',
          title: 'Weekly deals',
          payload: 'p-1',
          ...payload,
        },
      },
    },
    ...extra,
  })
}

describe('opt-in requests (notification_messages template on the Send API)', () => {
  it("is delivered inside the window, answers the Send API's ids and shows in the conversation", async () => {
    const conv = inside()
    const res = await request(conv.customer.id, {
      image_url: 'https://example.com/deal.png',
      notification_messages_cta_text: 'GET_UPDATES',
      notification_messages_timezone: 'America/Mexico_City',
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ recipient_id: conv.customer.id, message_id: expect.any(String) })
    const messages = await sb.graph('GET', `/${conv.id}/messages?fields=id,message,from`, token)
    const newest = (messages.body.data as { id: string; message: string; from: { id: string } }[])[0]!
    expect(newest).toMatchObject({
      id: res.body.message_id,
      message: 'Weekly deals',
      from: { id: sb.ids.large },
    })
    const sends = await sb.control('GET', `/marketing/sends?page_id=${sb.ids.large}`)
    expect(sends.body.data).toEqual([
      expect.objectContaining({ psid: conv.customer.id, kind: 'optin_request', title: 'Weekly deals' }),
    ])
  })

  it('is refused outside the 24-hour window (10/2018278)', async () => {
    const res = await request(outside().customer.id)
    expect(res.body.error).toMatchObject({ code: 10, error_subcode: 2018278 })
    expect((await sb.control('GET', '/marketing/sends')).body.data).toEqual([])
  })

  it('allows one request with the same title per person per 7 days (613/1893016), another title at once', async () => {
    const psid = inside().customer.id
    expect((await request(psid)).status).toBe(200)
    const again = await request(psid)
    expect(again.status).toBe(400)
    expect(again.body.error).toMatchObject({
      code: 613,
      error_subcode: 1893016,
      message: expect.stringContaining('multiple opt-in requests with the same topic'),
    })
    expect((await request(psid, { title: 'New arrivals' })).status).toBe(200)
    expect((await request(inside(1).customer.id)).status).toBe(200)
  })

  it('allows the same title again after 7 days (when the person wrote again)', async () => {
    const conv = inside()
    expect((await request(conv.customer.id)).status).toBe(200)
    vi.useFakeTimers({ now: Date.now() + 7 * DAY + HOUR, toFake: ['Date'] })
    await sb.post('/customer-message', { page_id: sb.ids.large, customer_id: conv.customer.id, text: 'hi' })
    expect((await request(conv.customer.id)).status).toBe(200)
  })

  it('validates the template: title at most 65, payload required, known CTA texts', async () => {
    const psid = inside().customer.id
    const cases: Record<string, unknown>[] = [
      { title: 'x'.repeat(66) },
      { payload: undefined },
      { notification_messages_cta_text: 'BUY_NOW' },
      { image_url: 'not a url' },
    ]
    for (const c of cases) {
      const res = await request(psid, c)
      expect(res.body.error, JSON.stringify(c)).toMatchObject({ code: 100 })
    }
    expect((await request(psid, { title: 'x'.repeat(65) })).status).toBe(200)
  })

  it('uses the network default title when none is given', async () => {
    const psid = inside().customer.id
    expect((await request(psid, { title: undefined })).status).toBe(200)
    const sends = await sb.control('GET', `/marketing/sends?page_id=${sb.ids.large}`)
    expect(sends.body.data[0]).toMatchObject({ title: 'Updates and promotions' })
  })

  it('keeps the fault injection of the Send API (613 when rate limited)', async () => {
    await sb.post('/faults', { rate_limit: true })
    expect((await request(inside().customer.id)).body.error).toMatchObject({ code: 613 })
  })
})

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  HOUR,
  startMarketingSandbox,
  webhookReceiver,
  type MarketingSandbox,
  type WebhookReceiver,
} from './test-support.ts'

let sb: MarketingSandbox
let hooks: WebhookReceiver
let user: string
let page: string
let accounts: Record<'mx' | 'de' | 'old', string>

beforeAll(async () => {
  hooks = await webhookReceiver()
  sb = await startMarketingSandbox({ messengerWebhookUrl: hooks.url })
})
afterAll(async () => {
  await sb.app.close()
  await hooks.close()
})
beforeEach(async () => {
  vi.useRealTimers()
  await sb.post('/reset')
  await sb.post('/faults', { webhook_receipt_share: 1, webhook_receipt_delay_ms: 0, webhook_read_share: 0 })
  user = await sb.marketingUserToken()
  page = await sb.marketingPageToken(sb.ids.large)
  const list = await sb.graph('GET', '/me/adaccounts?fields=id,name', user)
  const byName = (n: string) =>
    (list.body.data as { id: string; name: string }[]).find((a) => a.name === n)!.id
  accounts = { mx: byName('Tienda Sol Ads'), de: byName('Sol Europe'), old: byName('Old account') }
})

const createCampaign = (body: Record<string, unknown>, account = accounts.mx, token = page) =>
  sb.graph('POST', `/${account}/message_campaign`, token, {
    name: 'November deals',
    page_id: sb.ids.large,
    ...body,
  })

async function campaign(budget: Record<string, unknown> = { lifetime_budget: 3000 }): Promise<string> {
  const res = await createCampaign(budget)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.id as string
}

/** The demo subscribers' tokens of the large page, as the network lists them. */
async function subscribers(): Promise<{ notification_messages_token: string; recipient_id: string }[]> {
  const res = await sb.graph(
    'GET',
    `/${sb.ids.large}/notification_message_tokens?limit=1000&do_not_return_duplicates=true`,
    page,
  )
  return res.body.data as { notification_messages_token: string; recipient_id: string }[]
}

const send = (
  campaignId: string,
  subscriptionToken: string,
  message: unknown = { text: 'Sale this weekend' },
  account = accounts.mx,
  token = page,
) =>
  sb.graph('POST', `/${account}/messages`, token, {
    message_id: campaignId,
    messenger_delivery_data: { subscription_token: subscriptionToken },
    message,
  })

describe('POST /act_{id}/message_campaign', () => {
  it('creates a campaign with a lifetime or a daily budget and reads it back in the documented shape', async () => {
    const id = await campaign({ lifetime_budget: 3000 })
    expect(id).toMatch(/^\d+$/)
    const read = await sb.graph(
      'GET',
      `/${id}?fields=id,campaign{name},creative{actor_id},adset{name,lifetime_budget,daily_budget,start_time},effective_status`,
      page,
    )
    expect(read.body).toMatchObject({
      id,
      campaign: { name: 'November deals' },
      creative: { actor_id: sb.ids.large },
      adset: { lifetime_budget: '3000', daily_budget: '0', start_time: expect.any(String) },
      effective_status: 'ACTIVE',
    })
    const daily = await campaign({ daily_budget: '150' })
    expect((await sb.graph('GET', `/${daily}?fields=adset{daily_budget}`, user)).body).toMatchObject({
      adset: { daily_budget: '150' },
    })
  })

  it('deletes a campaign; its sends then answer an invalid message id', async () => {
    const id = await campaign()
    expect((await sb.graph('DELETE', `/${id}`, page)).body).toEqual({ success: true })
    const [sub] = await subscribers()
    expect((await send(id, sub!.notification_messages_token)).body.error).toMatchObject({ code: 2300001 })
    expect((await sb.graph('GET', `/${id}?fields=id`, page)).body.error).toMatchObject({ code: 2500 })
  })

  it('wants exactly one positive budget at or above the documented minimum', async () => {
    expect((await createCampaign({})).body.error).toMatchObject({ code: 2300007 })
    expect((await createCampaign({ daily_budget: 500, lifetime_budget: 5000 })).body.error).toMatchObject({
      code: 100,
    })
    expect((await createCampaign({ daily_budget: 0 })).body.error).toMatchObject({ code: 100 })
    expect((await createCampaign({ lifetime_budget: 'ten' })).body.error).toMatchObject({ code: 100 })
    const min = await sb.graph('GET', `/${accounts.mx}/minimum_budgets`, user)
    const daily = (min.body.data as { currency: string; min_daily_budget_imp: number }[])[0]!
    expect(daily.currency).toBe('MXN')
    expect((await createCampaign({ daily_budget: daily.min_daily_budget_imp - 1 })).body.error).toMatchObject(
      {
        code: 100,
        error_subcode: 1885272,
      },
    )
    expect(
      (await createCampaign({ lifetime_budget: 30 * daily.min_daily_budget_imp - 1 })).body.error,
    ).toMatchObject({
      code: 100,
    })
    expect((await createCampaign({ lifetime_budget: 30 * daily.min_daily_budget_imp })).status).toBe(200)
  })

  it('refuses an ad account in an unserved region (2300030), a disabled one, a missing page (2300065)', async () => {
    expect((await createCampaign({ lifetime_budget: 3000 }, accounts.de)).body.error).toMatchObject({
      code: 2300030,
    })
    expect((await createCampaign({ lifetime_budget: 3000 }, accounts.old)).body.error).toMatchObject({
      code: 200,
    })
    expect((await createCampaign({ lifetime_budget: 3000, page_id: undefined })).body.error).toMatchObject({
      code: 2300065,
    })
  })

  it('needs ads_management and paid_marketing_messages on the token (200)', async () => {
    const plain = await sb.pageToken(sb.ids.large)
    const res = await createCampaign({ lifetime_budget: 3000 }, accounts.mx, plain)
    expect(res.body.error).toMatchObject({ code: 200, message: expect.stringContaining('ads_management') })
  })
})

describe('POST /act_{id}/messages (send to a subscriber)', () => {
  it('delivers, answers the tracking id, charges the price, shows in the conversation and sends the echoes', async () => {
    const id = await campaign()
    const [sub] = await subscribers()
    const res = await send(id, sub!.notification_messages_token)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success: true,
      marketing_message_tracking_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })

    const conv = sb.seeded(sb.ids.large).find((c) => c.customer.id === sub!.recipient_id)!
    const messages = await sb.graph('GET', `/${conv.id}/messages?fields=id,message,from&limit=1`, page)
    const newest = (messages.body.data as { id: string; message: string; from: { id: string } }[])[0]!
    expect(newest).toMatchObject({ message: 'Sale this weekend', from: { id: sb.ids.large } })

    const spend = await sb.control('GET', `/marketing/spend?page_id=${sb.ids.large}`)
    expect(spend.body).toEqual({
      campaigns: [
        expect.objectContaining({
          id,
          status: 'ACTIVE',
          budget_kind: 'total',
          budget_minor: 3000,
          spend_minor: 85,
          sent: 1,
          currency: 'MXN',
        }),
      ],
      total_spend_minor: 85,
    })
    const sends = await sb.control('GET', `/marketing/sends?page_id=${sb.ids.large}`)
    expect(sends.body.data).toEqual([
      expect.objectContaining({
        psid: sub!.recipient_id,
        kind: 'marketing',
        text: 'Sale this weekend',
        message_id: newest.id,
        campaign_id: id,
      }),
    ])
    expect(JSON.stringify(sends.body)).not.toContain(sub!.notification_messages_token)

    const insights = await sb.graph(
      'GET',
      `/${id}/insights?fields=marketing_messages_spend,marketing_messages_delivered`,
      page,
    )
    expect((insights.body.data as unknown[])[0]).toMatchObject({
      marketing_messages_spend: '0.85',
      marketing_messages_delivered: '1',
    })

    await hooks.waitFor(3)
    await new Promise((r) => setTimeout(r, 100))
    const events = hooks.events()
    expect(events.find((e) => e.message?.is_echo && e.message.mid === newest.id)).toBeDefined()
    expect(events.find((e) => e.field === 'marketing_message_echoes')?.value).toMatchObject({
      recipient_id: sub!.recipient_id,
      page_id: sb.ids.large,
      mid: newest.id,
      marketing_message_tracking_id: res.body.marketing_message_tracking_id,
      message_id: id,
    })
    expect(events.find((e) => (e as { delivery?: { mids: string[] } }).delivery)).toBeDefined()
  })

  it('reports no insights row before the first delivery', async () => {
    const id = await campaign()
    expect(
      (await sb.graph('GET', `/${id}/insights?fields=marketing_messages_spend`, page)).body.data,
    ).toEqual([])
  })

  it('sends the generic template with an image', async () => {
    const id = await campaign()
    const [sub] = await subscribers()
    const generic = {
      attachment: {
        type: 'template',
        payload: {
          template_type: 'generic',
          elements: [{ title: 'Sale', image_url: 'https://example.com/s.png' }],
        },
      },
    }
    expect((await send(id, sub!.notification_messages_token, generic)).status).toBe(200)
    const sends = await sb.control('GET', '/marketing/sends')
    expect(sends.body.data[0]).toMatchObject({ text: 'Sale', image_url: 'https://example.com/s.png' })
  })

  it('refuses with the documented codes', async () => {
    const id = await campaign()
    const subs = await subscribers()
    const token = subs[0]!.notification_messages_token
    // Unknown message id.
    expect((await send('999', token)).body.error).toMatchObject({ code: 2300001, type: 'OAuthException' })
    // Unknown token.
    expect((await send(id, 'NMTnope')).body.error).toMatchObject({ code: 2300004 })
    // No content.
    expect((await send(id, token, null)).body.error).toMatchObject({ code: 2300010 })
    // A token of another page: forced opt-in on the small page.
    const small = sb.seeded(sb.ids.small)[0]!.customer.id
    const other = await sb.control('POST', '/optin', {
      page_id: sb.ids.small,
      psid: small,
      action: 'optin',
      force: true,
    })
    expect((await send(id, other.body.notification_messages_token as string)).body.error).toMatchObject({
      code: 2300005,
    })
    // The campaign of a page sent with another page's token.
    const smallToken = await sb.marketingPageToken(sb.ids.small)
    expect((await send(id, token, undefined, accounts.mx, smallToken)).body.error).toMatchObject({
      code: 2300005,
    })
    // Once per token per 12 hours.
    expect((await send(id, token)).status).toBe(200)
    expect((await send(id, token)).body.error).toMatchObject({ code: 2300035 })
    // The person stopped: the token no longer loads.
    await sb.control('POST', '/optin', { page_id: sb.ids.large, psid: subs[1]!.recipient_id, action: 'stop' })
    expect((await send(id, subs[1]!.notification_messages_token)).body.error).toMatchObject({ code: 2300004 })
    // Paused campaign.
    expect((await sb.control('POST', `/marketing/campaigns/${id}`, { status: 'PAUSED' })).status).toBe(200)
    expect((await send(id, subs[2]!.notification_messages_token)).body.error).toMatchObject({ code: 2300000 })
    expect((await sb.graph('GET', `/${id}?fields=effective_status`, page)).body).toMatchObject({
      effective_status: 'PAUSED',
    })
    await sb.control('POST', `/marketing/campaigns/${id}`, { status: 'ACTIVE' })
    expect((await send(id, subs[2]!.notification_messages_token)).status).toBe(200)
    // A user token cannot send.
    expect(
      (await send(id, subs[3]!.notification_messages_token, undefined, accounts.mx, user)).body.error,
    ).toMatchObject({ code: 190 })
    // Nothing refused was charged.
    expect((await sb.control('GET', '/marketing/spend')).body.total_spend_minor).toBe(2 * 85)
  })

  it('stops at the lifetime budget (2300053) and at the daily budget until the next day (2300054)', async () => {
    const subs = await subscribers()
    const total = await campaign({ lifetime_budget: 3000 })
    let sent = 0
    let refused: unknown
    for (const s of subs) {
      const res = await send(total, s.notification_messages_token)
      if (res.status !== 200) {
        refused = res.body.error
        break
      }
      sent++
    }
    expect(sent).toBe(Math.floor(3000 / 85))
    expect(refused).toMatchObject({ code: 2300053 })

    await sb.post('/reset')
    page = await sb.marketingPageToken(sb.ids.large)
    const daily = await campaign({ daily_budget: 200 })
    const fresh = await subscribers()
    expect((await send(daily, fresh[0]!.notification_messages_token)).status).toBe(200)
    expect((await send(daily, fresh[1]!.notification_messages_token)).status).toBe(200)
    expect((await send(daily, fresh[2]!.notification_messages_token)).body.error).toMatchObject({
      code: 2300054,
    })
    vi.useFakeTimers({ now: Date.now() + 24 * HOUR, toFake: ['Date'] })
    expect((await send(daily, fresh[2]!.notification_messages_token)).status).toBe(200)
  })

  it('keeps the fault injection: rate limiting answers 613 and charges nothing', async () => {
    const id = await campaign()
    const [sub] = await subscribers()
    await sb.post('/faults', { rate_limit: true })
    expect((await send(id, sub!.notification_messages_token)).body.error).toMatchObject({ code: 613 })
    await sb.post('/faults', { rate_limit: false, fail_rate: 1 })
    expect((await send(id, sub!.notification_messages_token)).status).toBe(500)
    expect((await sb.control('GET', '/marketing/spend')).body.total_spend_minor).toBe(0)
  })
})

describe('GET /act_{id}/message_delivery_estimate', () => {
  it("estimates deliveries and cost (minor units) from the page's subscribers and the budget", async () => {
    const q = new URLSearchParams({
      fields:
        'estimate_delivery_upper_bound,estimate_delivery_lower_bound,estimate_cost_upper_bound,estimate_cost_lower_bound',
      lifetime_budget: '100000',
      pacing_type: 'no_pacing',
      is_direct_send_campaign: 'true',
      promoted_object: JSON.stringify({ page_id: sb.ids.large }),
    })
    const res = await sb.graph('GET', `/${accounts.mx}/message_delivery_estimate?${q}`, page)
    const active = (await subscribers()).length
    expect(res.body.data).toEqual([
      {
        estimate_delivery_upper_bound: active,
        estimate_delivery_lower_bound: Math.floor(active * 0.8),
        estimate_cost_upper_bound: active * 85,
        estimate_cost_lower_bound: Math.floor(active * 0.8) * 85,
      },
    ])
  })
})

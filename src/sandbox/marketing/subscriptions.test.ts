import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DEMO_SUBSCRIBERS_INSIDE, DEMO_SUBSCRIBERS_OUTSIDE } from './state.ts'
import {
  DAY,
  startMarketingSandbox,
  webhookReceiver,
  type MarketingSandbox,
  type WebhookReceiver,
} from './test-support.ts'

let sb: MarketingSandbox
let hooks: WebhookReceiver
beforeAll(async () => {
  hooks = await webhookReceiver()
  sb = await startMarketingSandbox({ messengerWebhookUrl: hooks.url })
})
afterAll(async () => {
  await sb.app.close()
  await hooks.close()
})
beforeEach(async () => {
  await sb.post('/reset')
})

interface TokenEntry {
  notification_messages_token: string
  recipient_id: string
  token_expiry_timestamp: number
  creation_timestamp: number
  notification_messages_timezone: string
  topic_title: string
  user_token_status: string
  notification_messages_reoptin: string
  next_eligible_time: number
}
type TokenPage = { data: TokenEntry[]; paging?: { cursors: { after: string }; next?: string } }

async function allTokens(token: string, query = 'do_not_return_duplicates=true'): Promise<TokenEntry[]> {
  const out: TokenEntry[] = []
  let after: string | undefined
  for (;;) {
    const { status, body } = await sb.graph(
      'GET',
      `/${sb.ids.large}/notification_message_tokens?limit=7&${query}${after ? `&after=${after}` : ''}`,
      token,
    )
    expect(status).toBe(200)
    const page = body as unknown as TokenPage
    out.push(...page.data)
    if (!page.paging?.next) return out
    after = page.paging.cursors.after
  }
}

const askToSubscribe = (token: string, psid: string, title = 'Weekly deals') =>
  sb.graph('POST', '/me/messages', token, {
    recipient: { id: psid },
    messaging_type: 'RESPONSE',
    message: {
      attachment: {
        type: 'template',
        payload: { template_type: 'notification_messages', title, payload: 'deals-1' },
      },
    },
  })

describe('the demo subscribers of the large page', () => {
  it('are listed by /notification_message_tokens, some outside the window, the stopped one not at all', async () => {
    const token = await sb.marketingPageToken(sb.ids.large)
    const tokens = await allTokens(token)
    expect(tokens).toHaveLength(DEMO_SUBSCRIBERS_OUTSIDE + DEMO_SUBSCRIBERS_INSIDE - 1)
    const seeded = new Map(sb.seeded(sb.ids.large).map((c) => [c.customer.id, c]))
    const outside = tokens.filter((t) => Date.now() - seeded.get(t.recipient_id)!.lastCustomerMs > DAY)
    expect(outside).toHaveLength(DEMO_SUBSCRIBERS_OUTSIDE - 1)
    expect(tokens[0]).toMatchObject({
      notification_messages_token: expect.stringMatching(/^NMT/),
      topic_title: 'Updates and promotions',
      notification_messages_timezone: expect.any(String),
      notification_messages_reoptin: 'ENABLED',
      creation_timestamp: expect.any(Number),
      next_eligible_time: expect.any(Number),
    })
    const subs = await sb.control('GET', `/marketing/subscribers?page_id=${sb.ids.large}`)
    expect(subs.body.data.filter((s) => s.status === 'stopped')).toHaveLength(1)
  })

  it('pages with limit (default 100, at most 1000) and cursors, newest first, without repeats', async () => {
    const token = await sb.marketingPageToken(sb.ids.large)
    const base = `/${sb.ids.large}/notification_message_tokens`
    const all = (await sb.graph('GET', base, token)).body as unknown as TokenPage
    expect(all.data).toHaveLength(DEMO_SUBSCRIBERS_OUTSIDE + DEMO_SUBSCRIBERS_INSIDE - 1)
    expect(all.paging?.next).toBeUndefined()
    const created = all.data.map((t) => t.creation_timestamp)
    expect([...created].sort((a, b) => b - a)).toEqual(created)
    const paged = await allTokens(token)
    expect(new Set(paged.map((t) => t.notification_messages_token)).size).toBe(paged.length)
    expect(paged.map((t) => t.recipient_id).sort()).toEqual(all.data.map((t) => t.recipient_id).sort())
    const big = (await sb.graph('GET', `${base}?limit=5000`, token)).body as unknown as TokenPage
    expect(big.data).toHaveLength(all.data.length)
  })

  it('reads one token by id for its page only', async () => {
    const token = await sb.marketingPageToken(sb.ids.large)
    const [first] = await allTokens(token)
    const one = await sb.graph(
      'GET',
      `/notification_messages_${first!.notification_messages_token}?fields=recipient_id,topic_title`,
      token,
    )
    expect(one.body).toEqual({ recipient_id: first!.recipient_id, topic_title: 'Updates and promotions' })
    const other = await sb.marketingPageToken(sb.ids.small)
    const res = await sb.graph('GET', `/notification_messages_${first!.notification_messages_token}`, other)
    expect(res.body.error).toMatchObject({ code: 100, error_subcode: 33 })
  })

  it('needs a page token of that page', async () => {
    const user = await sb.marketingUserToken()
    const res = await sb.graph('GET', `/${sb.ids.large}/notification_message_tokens`, user)
    expect(res.body.error).toMatchObject({ code: 190 })
    const other = await sb.marketingPageToken(sb.ids.small)
    expect(
      (await sb.graph('GET', `/${sb.ids.large}/notification_message_tokens`, other)).body.error,
    ).toMatchObject({
      code: 100,
    })
  })
})

describe('POST /sandbox/optin', () => {
  const inside = () =>
    sb
      .seeded(sb.ids.large)
      .find((c) => c.canReply && !c.blocked && Date.now() - c.lastCustomerMs < 20 * 3_600_000)!

  it('refuses an opt-in without a delivered request of that title, unless forced', async () => {
    const psid = inside().customer.id
    const refused = await sb.control('POST', '/optin', {
      page_id: sb.ids.large,
      psid,
      action: 'optin',
      title: 'Weekly deals',
    })
    expect(refused.status).toBe(409)
    const forced = await sb.control('POST', '/optin', {
      page_id: sb.ids.large,
      psid,
      action: 'optin',
      title: 'Weekly deals',
      force: true,
    })
    expect(forced.status).toBe(200)
  })

  it('after a delivered request issues a token, lists it and sends the signed messaging_optins webhook', async () => {
    const token = await sb.marketingPageToken(sb.ids.large)
    const psid = inside().customer.id
    expect((await askToSubscribe(token, psid)).status).toBe(200)
    const before = hooks.bodies.length
    const res = await sb.control('POST', '/optin', {
      page_id: sb.ids.large,
      psid,
      action: 'optin',
      title: 'Weekly deals',
    })
    expect(res.status).toBe(200)
    const issued = res.body.notification_messages_token as string
    expect((await allTokens(token)).find((t) => t.recipient_id === psid)?.notification_messages_token).toBe(
      issued,
    )

    await hooks.waitFor(before + 2)
    const optins = hooks.events().filter((m) => m.optin)
    const event = optins.find((m) => m.optin!.notification_messages_token === issued)!
    expect(event).toMatchObject({
      sender: { id: psid },
      recipient: { id: sb.ids.large },
      timestamp: expect.any(Number),
      optin: {
        type: 'notification_messages',
        payload: 'deals-1',
        notification_messages_token: issued,
        notification_messages_timezone: expect.any(String),
        token_expiry_timestamp: expect.any(Number),
        user_token_status: 'NOT_REFRESHED',
        title: 'Weekly deals',
      },
    })
    expect(event.optin!.notification_messages_status).toBeUndefined()
    expect(hooks.signedWith(sb.options.appSecret)).toBe(true)
  })

  it('stop removes the token from the list at once and says STOP_NOTIFICATIONS; resume brings it back', async () => {
    const token = await sb.marketingPageToken(sb.ids.large)
    const listed = (await allTokens(token))[0]!
    const stop = await sb.control('POST', '/optin', {
      page_id: sb.ids.large,
      psid: listed.recipient_id,
      action: 'stop',
    })
    expect(stop.body).toMatchObject({ status: 'stopped', notification_messages_status: 'STOP_NOTIFICATIONS' })
    expect((await allTokens(token)).map((t) => t.recipient_id)).not.toContain(listed.recipient_id)
    const resume = await sb.control('POST', '/optin', {
      page_id: sb.ids.large,
      psid: listed.recipient_id,
      action: 'resume',
    })
    expect(resume.body).toMatchObject({
      status: 'active',
      notification_messages_status: 'RESUME_NOTIFICATIONS',
    })
    expect((await allTokens(token)).map((t) => t.recipient_id)).toContain(listed.recipient_id)

    await hooks.waitFor(hooks.bodies.length)
    await new Promise((r) => setTimeout(r, 100))
    const statuses = hooks
      .events()
      .filter((m) => m.optin?.notification_messages_token === listed.notification_messages_token)
      .map((m) => m.optin!.notification_messages_status)
    expect(statuses).toEqual(['STOP_NOTIFICATIONS', 'RESUME_NOTIFICATIONS'])
  })

  it('keeps one token per person with do_not_return_duplicates, all of them without', async () => {
    const token = await sb.marketingPageToken(sb.ids.large)
    const listed = (await allTokens(token))[0]!
    await sb.control('POST', '/optin', {
      page_id: sb.ids.large,
      psid: listed.recipient_id,
      action: 'optin',
      title: 'Second topic',
      force: true,
    })
    const unique = await allTokens(token)
    expect(unique.filter((t) => t.recipient_id === listed.recipient_id)).toHaveLength(1)
    const all = await allTokens(token, 'do_not_return_duplicates=false')
    expect(all.filter((t) => t.recipient_id === listed.recipient_id)).toHaveLength(2)
  })

  it('answers 404 for an unknown page or customer and 400 for an unknown action', async () => {
    expect((await sb.control('POST', '/optin', { page_id: '1', psid: '2', action: 'optin' })).status).toBe(
      404,
    )
    expect(
      (await sb.control('POST', '/optin', { page_id: sb.ids.large, psid: '2', action: 'optin' })).status,
    ).toBe(404)
    expect(
      (await sb.control('POST', '/optin', { page_id: sb.ids.large, psid: inside().customer.id, action: 'x' }))
        .status,
    ).toBe(400)
  })
})

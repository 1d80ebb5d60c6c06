/**
 * The marketing-messages Graph client against the recorded shapes (tests/fixtures/graph/marketing): what it
 * sends (path, query, JSON body) and what it makes of the documented answers and errors.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { GraphError, MARKETING_ERROR_CODES, marketingErrorOf } from './errors.ts'
import {
  createMarketingGraph,
  MARKETING_BUSINESS_COUNTRIES,
  MARKETING_SCOPES,
  marketingAvailableIn,
  marketingMessageBody,
  minorUnitsPerUnit,
} from './marketing.ts'

interface Fixture {
  _source: string
  request?: { method: string; path: string; query?: Record<string, string>; body?: unknown }
  status: number
  body: unknown
}

const DIR = new URL('../../../tests/fixtures/graph/marketing/', import.meta.url)
const fixture = (name: string): Fixture =>
  JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8')) as Fixture
const parentFixture = (name: string): Fixture =>
  JSON.parse(readFileSync(new URL(`../${name}.json`, DIR), 'utf8')) as Fixture

interface Sent {
  method: string
  path: string
  query: Record<string, string>
  token: string | undefined
  body: unknown
}

const ROOT = 'https://graph.test/v25.0/'

/** A fetch that answers each call with the next fixture and records what was asked. */
function fakeNetwork(...answers: Fixture[]) {
  const sent: Sent[] = []
  const queue = [...answers]
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    const query = Object.fromEntries(url.searchParams)
    const token = query.access_token
    delete query.access_token
    sent.push({
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.href.slice(ROOT.length).split('?')[0]!,
      query,
      token,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    })
    const answer = queue.shift()
    if (!answer) throw new Error(`unexpected call ${url.href}`)
    return Promise.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      }),
    )
  }
  const graph = createMarketingGraph({ baseUrl: 'https://graph.test', version: 'v25.0', fetch })
  return { graph, sent }
}

/** The recorded request, as the fake network sees it. */
function expectRequest(sent: Sent | undefined, f: Fixture, token: string) {
  expect(sent).toBeDefined()
  expect(sent!.method).toBe(f.request!.method)
  expect(sent!.path).toBe(f.request!.path)
  expect(sent!.token).toBe(token)
  expect(sent!.query).toEqual(f.request!.query ?? {})
  if (f.request!.body !== undefined) expect(sent!.body).toEqual(f.request!.body)
}

describe('ad accounts', () => {
  it('reads every page of /me/adaccounts with the fields the turn-on step needs', async () => {
    const p1 = fixture('ad-accounts-page-1')
    const p2 = fixture('ad-accounts-page-2')
    const { graph, sent } = fakeNetwork(p1, p2)
    const accounts = await graph.adAccounts('USER_TOKEN')
    expectRequest(sent[0], p1, 'USER_TOKEN')
    expectRequest(sent[1], p2, 'USER_TOKEN')
    expect(accounts.map((a) => [a.id, a.currency, a.account_status, a.business_country_code])).toEqual([
      ['act_1029384756', 'MXN', 1, 'MX'],
      ['act_5647382910', 'EUR', 1, 'DE'],
      ['act_7788990011', 'PHP', 2, 'PH'],
    ])
  })

  it('reads one ad account by id, with or without the act_ prefix', async () => {
    const f = fixture('ad-account')
    const { graph, sent } = fakeNetwork(f, f)
    expect(await graph.adAccount('act_1029384756', 'TOKEN')).toEqual(f.body)
    await graph.adAccount('1029384756', 'TOKEN')
    expectRequest(sent[0], f, 'TOKEN')
    expectRequest(sent[1], f, 'TOKEN')
  })
})

describe('subscription tokens', () => {
  it('asks one page of tokens without duplicates and maps topic_title to title', async () => {
    const f = fixture('subscription-tokens')
    const { graph, sent } = fakeNetwork(f)
    const page = await graph.subscriptionTokens('682498302938465', 'PAGE_TOKEN')
    expectRequest(sent[0], f, 'PAGE_TOKEN')
    expect(page.data).toEqual([
      {
        notification_messages_token: '7420158893361412',
        recipient_id: '1254477777772919',
        notification_messages_reoptin: 'ENABLED',
        creation_timestamp: 1763380000,
        token_expiry_timestamp: 1794916000,
        user_token_status: 'REFRESHED',
        title: 'Updates and offers',
        notification_messages_timezone: 'America/Mexico_City',
        next_eligible_time: 1763380000,
      },
      {
        notification_messages_token: '7420158893361455',
        recipient_id: '1254477777772920',
        notification_messages_reoptin: 'ENABLED',
        creation_timestamp: 1763390000,
        token_expiry_timestamp: 1794926000,
        user_token_status: 'NOT_REFRESHED',
        title: 'Flash sales',
        notification_messages_timezone: 'Asia/Manila',
        next_eligible_time: 1763433200,
      },
    ])
    expect(page.paging?.cursors?.after).toBe('QVFIUnRvazM')
  })

  it('passes the cursor and never asks more than the network allows per page', async () => {
    const f = fixture('subscription-tokens')
    const { graph, sent } = fakeNetwork(f, f)
    await graph.subscriptionTokens('682498302938465', 'PAGE_TOKEN', { after: 'QVFIUnRvazM', limit: 50 })
    await graph.subscriptionTokens('682498302938465', 'PAGE_TOKEN', { limit: 5000 })
    expect(sent[0]!.query).toEqual({ limit: '50', do_not_return_duplicates: 'true', after: 'QVFIUnRvazM' })
    expect(sent[1]!.query).toEqual({ limit: '1000', do_not_return_duplicates: 'true' })
  })
})

describe('campaigns', () => {
  it('creates a campaign with a total budget as lifetime_budget in minor units', async () => {
    const f = fixture('campaign-create')
    const { graph, sent } = fakeNetwork(f)
    const created = await graph.createCampaign('act_1029384756', 'PAGE_TOKEN', {
      name: 'Pagecast Black Friday',
      pageId: '682498302938465',
      budget: { kind: 'total', minor: 50000 },
    })
    expectRequest(sent[0], f, 'PAGE_TOKEN')
    expect(created).toEqual({ id: '120212345678901234' })
  })

  it('sends a daily budget as daily_budget only', async () => {
    const f = fixture('campaign-create')
    const { graph, sent } = fakeNetwork(f)
    await graph.createCampaign('1029384756', 'PAGE_TOKEN', {
      name: 'Daily',
      pageId: '682498302938465',
      budget: { kind: 'daily', minor: 8500 },
    })
    expect(sent[0]!.path).toBe('act_1029384756/message_campaign')
    expect(sent[0]!.body).toEqual({ name: 'Daily', page_id: '682498302938465', daily_budget: 8500 })
  })

  it('refuses a budget that is not a positive whole number of minor units without asking the network', async () => {
    const { graph, sent } = fakeNetwork()
    for (const minor of [0, -5, 12.5]) {
      await expect(
        graph.createCampaign('act_1', 'T', { name: 'x', pageId: '1', budget: { kind: 'total', minor } }),
      ).rejects.toBeInstanceOf(GraphError)
    }
    expect(sent).toHaveLength(0)
  })

  it('reads status, budget and spend, converting the spend to minor units of the currency', async () => {
    const info = fixture('campaign-get')
    const insights = fixture('campaign-insights')
    const { graph, sent } = fakeNetwork(info, insights, info, insights)
    const mxn = await graph.campaign('120212345678901234', 'PAGE_TOKEN', 'MXN')
    expectRequest(sent[0], info, 'PAGE_TOKEN')
    expectRequest(sent[1], insights, 'PAGE_TOKEN')
    expect(mxn).toEqual({
      id: '120212345678901234',
      status: 'ACTIVE',
      spendMinor: 3887,
      delivered: 2755,
      lifetimeBudgetMinor: 50000,
    })
    const idr = await graph.campaign('120212345678901234', 'PAGE_TOKEN', 'IDR')
    expect(idr.spendMinor).toBe(39)
  })

  it('reads no spend yet as zero and a paused campaign as paused', async () => {
    const info = fixture('campaign-get')
    const paused = { ...info, body: { ...(info.body as object), effective_status: 'PAUSED' } }
    const empty = { ...fixture('campaign-insights'), body: { data: [] } }
    const { graph } = fakeNetwork(paused, empty)
    expect(await graph.campaign('120212345678901234', 'PAGE_TOKEN', 'MXN')).toMatchObject({
      status: 'PAUSED',
      spendMinor: 0,
      delivered: 0,
    })
  })

  it('has no message object to create: the send names the campaign', async () => {
    const { graph, sent } = fakeNetwork()
    const message = await graph.createMarketingMessage('act_1029384756', 'PAGE_TOKEN', {
      campaignId: '120212345678901234',
      pageId: '682498302938465',
      name: 'Black Friday',
      text: 'Hello',
    })
    expect(message).toEqual({ id: '120212345678901234' })
    expect(sent).toHaveLength(0)
  })

  it('asks the delivery estimate for a budget', async () => {
    const f = fixture('delivery-estimate')
    const { graph, sent } = fakeNetwork(f)
    const estimate = await graph.deliveryEstimate('act_1029384756', 'PAGE_TOKEN', {
      pageId: '682498302938465',
      budget: { kind: 'total', minor: 50000 },
    })
    expectRequest(sent[0], f, 'PAGE_TOKEN')
    expect(estimate).toEqual({
      deliveryLower: 520,
      deliveryUpper: 640,
      costLowerMinor: 44200,
      costUpperMinor: 50000,
    })
  })
})

describe('sending a marketing message', () => {
  it('sends the text template to one subscription token, naming the campaign as message_id', async () => {
    const f = fixture('send-text')
    const { graph, sent } = fakeNetwork(f)
    const result = await graph.sendMarketingMessage('act_1029384756', 'PAGE_TOKEN', {
      messageId: '120212345678901234',
      subscriptionToken: '7420158893361412',
      text: 'Black Friday: 30% off everything until Sunday.',
    })
    expectRequest(sent[0], f, 'PAGE_TOKEN')
    expect(result).toEqual({
      success: true,
      marketing_message_tracking_id: '98ecd977-245a-4ec0-a8e0-8b8ecaad8030',
    })
  })

  it('sends an image with the generic template', async () => {
    const f = fixture('send-generic-image')
    const { graph, sent } = fakeNetwork(f)
    await graph.sendMarketingMessage('1029384756', 'PAGE_TOKEN', {
      messageId: '120212345678901234',
      subscriptionToken: '7420158893361412',
      text: 'New hats are in!',
      imageUrl: 'https://cdn.example.com/hats.jpg',
    })
    expectRequest(sent[0], f, 'PAGE_TOKEN')
  })

  it('puts a text too long for a title in the greeting and shortens the title', () => {
    const text = 'x'.repeat(120)
    const body = marketingMessageBody(text, 'https://cdn.example.com/a.jpg') as {
      attachment: { payload: { text: string; elements: { title: string }[] } }
    }
    expect(body.attachment.payload.text).toBe(text)
    expect([...body.attachment.payload.elements[0]!.title]).toHaveLength(80)
    expect(body.attachment.payload.elements[0]!.title.endsWith('…')).toBe(true)
  })
})

describe('opt-in requests', () => {
  it('sends the notification_messages template with the Send API', async () => {
    const f = fixture('optin-request')
    const { graph, sent } = fakeNetwork(f)
    const result = await graph.sendOptInRequest('PAGE_TOKEN', '1254477777772919', {
      title: 'Updates and offers',
      payload: 'pagecast:optin:682498302938465',
      imageUrl: 'https://cdn.example.com/offers.jpg',
    })
    expectRequest(sent[0], f, 'PAGE_TOKEN')
    expect(result).toEqual(f.body)
  })

  it('reads the answer as the marketing page prints it too', async () => {
    const { graph } = fakeNetwork(fixture('optin-request-nested-answer'))
    expect(
      await graph.sendOptInRequest('PAGE_TOKEN', '1254477777772919', { title: 't', payload: 'p' }),
    ).toEqual({
      recipient_id: '1254477777772919',
      message_id: 'm_AG5Hz2Uq7tuwNEhXfYYKj8mJEM_QPpz5jdCK48PnKAjSdjfipqxq',
    })
  })

  it('names the window refusal of an opt-in request and the weekly limit of a title', async () => {
    const { graph } = fakeNetwork(parentFixture('error-10-2018278'), fixture('error-613-1893016'))
    const outside = await graph
      .sendOptInRequest('PAGE_TOKEN', '1254477777772919', { title: 't', payload: 'p' })
      .catch((e: unknown) => e)
    expect(outside).toBeInstanceOf(GraphError)
    expect(outside).toMatchObject({ kind: 'outside_window', marketing: 'outside_window', subcode: 2018278 })
    const weekly = await graph
      .sendOptInRequest('PAGE_TOKEN', '1254477777772919', { title: 't', payload: 'p' })
      .catch((e: unknown) => e)
    expect(weekly).toMatchObject({ kind: 'recipient_gone', marketing: 'optin_weekly_limit', code: 613 })
  })
})

describe('documented errors', () => {
  const expected: Record<string, [string, string]> = {
    'error-2300000': ['inactive_campaign', 'config'],
    'error-2300001': ['invalid_message', 'config'],
    'error-2300002': ['inactive_message_set', 'config'],
    'error-2300003': ['inactive_message', 'config'],
    'error-2300004': ['invalid_token', 'recipient_gone'],
    'error-2300004-as-subcode': ['invalid_token', 'recipient_gone'],
    'error-2300005': ['page_mismatch', 'config'],
    'error-2300015': ['budget_spent', 'config'],
    'error-2300034': ['subscriber_stopped', 'recipient_gone'],
    'error-2300037': ['token_expired', 'recipient_gone'],
    'error-2300053': ['budget_spent', 'config'],
    'error-2300054': ['daily_budget_reached', 'config'],
    'error-2300055': ['try_later', 'transient'],
    'error-2300078': ['rate_limited', 'throttle'],
    'error-10-1404170': ['optin_restricted', 'page_blocked'],
    'error-10-1893015': ['subscriber_stopped', 'recipient_gone'],
    'error-4-2018354': ['frequency_limit', 'recipient_gone'],
    'error-613-1893016': ['optin_weekly_limit', 'recipient_gone'],
    'error-9-2018352': ['optin_request_limit', 'recipient_gone'],
  }

  it('has an expectation for every recorded error', () => {
    const recorded = readdirSync(DIR)
      .filter((f) => f.startsWith('error-'))
      .map((f) => f.replace(/\.json$/, ''))
    expect(recorded.sort()).toEqual(Object.keys(expected).sort())
  })

  for (const [name, [marketing, kind]] of Object.entries(expected)) {
    it(`rejects a send answered with ${name} as ${marketing} (${kind})`, async () => {
      const f = fixture(name)
      const { graph } = fakeNetwork(f)
      const err = await graph
        .sendMarketingMessage('act_1029384756', 'PAGE_TOKEN', {
          messageId: '120212345678901234',
          subscriptionToken: '7420158893361412',
          text: 'Hi',
        })
        .catch((e: unknown) => e)
      const body = (f.body as { error: { message: string; fbtrace_id: string } }).error
      expect(err).toBeInstanceOf(GraphError)
      expect(err).toMatchObject({ marketing, kind, message: body.message, fbtraceId: body.fbtrace_id })
      expect((err as GraphError).httpStatus).toBe(f.status)
    })
  }

  it('names every code of the published table, and the six named ones as the reference names them', () => {
    const table = JSON.parse(readFileSync(new URL('api-errors-table.json', DIR), 'utf8')) as {
      errors: { code: number; name?: string }[]
    }
    for (const { code } of table.errors) {
      expect(MARKETING_ERROR_CODES[code], String(code)).toBeDefined()
      expect(marketingErrorOf(code, undefined)).not.toBe('marketing_unknown')
    }
    expect(Object.keys(MARKETING_ERROR_CODES).map(Number).sort()).toEqual(
      table.errors.map((e) => e.code).sort(),
    )
    const named = Object.fromEntries(table.errors.filter((e) => e.name).map((e) => [e.name, e.code]))
    expect(marketingErrorOf(named.INACTIVE_CAMPAIGN, undefined)).toBe('inactive_campaign')
    expect(marketingErrorOf(named.INVALID_MESSAGE_ID, undefined)).toBe('invalid_message')
    expect(marketingErrorOf(named.INACTIVE_MESSAGE_SET, undefined)).toBe('inactive_message_set')
    expect(marketingErrorOf(named.INACTIVE_MESSAGE, undefined)).toBe('inactive_message')
    expect(marketingErrorOf(named.INVALID_MESSENGER_SUBSCRIPTION_TOKEN, undefined)).toBe('invalid_token')
    expect(marketingErrorOf(named.PAGE_ID_MISMATCH, undefined)).toBe('page_mismatch')
    expect(marketingErrorOf(2300099, undefined)).toBe('marketing_unknown')
    expect(marketingErrorOf(100, 2018001)).toBeUndefined()
  })
})

describe('regions, scopes and currencies', () => {
  it('serves the twenty documented business countries only', () => {
    expect([...MARKETING_BUSINESS_COUNTRIES].sort()).toEqual(
      'AE AU BR CL CO HK ID IL IN MX MY NZ PE PH SA SG TH TW US VN'.split(' '),
    )
    expect(marketingAvailableIn('MX')).toBe(true)
    expect(marketingAvailableIn('ph')).toBe(true)
    expect(marketingAvailableIn('DE')).toBe(false)
    expect(marketingAvailableIn(undefined)).toBe(false)
  })

  it('asks only the two extra permissions', () => {
    expect(MARKETING_SCOPES).toEqual(['ads_management', 'paid_marketing_messages'])
  })

  it('knows the currencies whose amounts have no minor unit', () => {
    expect(minorUnitsPerUnit('MXN')).toBe(100)
    expect(minorUnitsPerUnit('IDR')).toBe(1)
    expect(minorUnitsPerUnit('VND')).toBe(1)
    expect(minorUnitsPerUnit(undefined)).toBe(100)
  })
})

/**
 * `/api/v2/pages/{pageId}/marketing…`: the page's state, the ad accounts, turning on (token, permissions, ad
 * account status and region checked with the network) and off, the token list sync, the active subscribers,
 * and the opt-in request check and record. Every route validates, and answers only for a bound page.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { GraphError, networkError } from '../../core/graph/errors.ts'
import type { Page } from '../../core/graph/types.ts'
import { tokenBox } from '../bulk/token-box.ts'
import type { GraphApi } from '../graph/graph-api.ts'
import type { AdAccount, MarketingGraphPort, SubscriptionTokenEntry } from '../graph/marketing-port.ts'
import { applySubscriberEvent } from '../repo/marketing.ts'
import {
  type LoggedIn,
  type TestApp,
  fakeGraph,
  login,
  onEveryStore,
  registerPage,
  startTestApp,
  testConfig,
} from '../testing/harness.ts'

const KEY = Buffer.alloc(32, 3)
const SCOPES = 'ads_management,paid_marketing_messages'
const DAY = 86_400_000

/** `mk:<page>@<user>:<scopes>`: a page token of that user granting those scopes. */
const marketingToken = (pageId: string, fb: string, scopes = SCOPES) => `mk:${pageId}@${fb}:${scopes}`

const graph: GraphApi = {
  ...fakeGraph,
  async debugToken(token) {
    const m = /^mk:(\d+)@(\d+):([a-z_,]*)$/.exec(token)
    if (!m) return fakeGraph.debugToken(token)
    return {
      app_id: testConfig().FB_APP_ID,
      type: 'PAGE',
      is_valid: true,
      profile_id: m[1]!,
      user_id: m[2]!,
      scopes: ['pages_messaging', ...m[3]!.split(',').filter(Boolean)],
    }
  },
}

const ACCOUNTS: AdAccount[] = [
  { id: 'act_1', account_id: '1', name: 'Tienda Sol Ads', currency: 'MXN', account_status: 1, business_country_code: 'MX' },
  { id: 'act_2', account_id: '2', name: 'Sol Europe', currency: 'EUR', account_status: 1, business_country_code: 'DE' },
  { id: 'act_3', account_id: '3', name: 'Old account', currency: 'MXN', account_status: 2, business_country_code: 'MX' },
] // prettier-ignore

const graphError = (code: number, message: string) =>
  new GraphError({ kind: code === 190 ? 'auth' : 'config', message, code, httpStatus: 400 })

/** Token list pages per page id; each call is recorded. */
const tokenLists = new Map<string, Page<SubscriptionTokenEntry>[]>()
const tokenCalls: { pageId: string; after: string | undefined }[] = []
/** Runs before a page of the token list is answered (index of the page): a failure, or a webhook racing the sync. */
const tokenHooks = new Map<string, (i: number) => Promise<void>>()

const marketingGraph: MarketingGraphPort = {
  async adAccounts(userToken) {
    if (userToken === 'bad') throw graphError(190, 'Invalid OAuth access token.')
    if (userToken === 'down') throw networkError(new Error('offline'))
    if (userToken === 'no-ads') throw graphError(200, 'Requires ads_management permission.')
    return ACCOUNTS
  },
  async adAccount(id) {
    if (id === 'act_9') return { id, account_id: '9', name: 'Half', account_status: 1 } as AdAccount
    const found = ACCOUNTS.find((a) => a.id === id)
    if (!found) throw graphError(100, 'Unsupported get request.')
    return found
  },
  async subscriptionTokens(pageId, _token, opts = {}) {
    tokenCalls.push({ pageId, after: opts.after })
    const pages = tokenLists.get(pageId) ?? [{ data: [] }]
    const i = opts.after ? Number(opts.after) : 0
    await tokenHooks.get(pageId)?.(i)
    return pages[i] ?? { data: [] }
  },
}

const entry = (psid: string, createdMs: number): SubscriptionTokenEntry => ({
  notification_messages_token: `list-${psid}`,
  recipient_id: psid,
  creation_timestamp: Math.floor(createdMs / 1000),
  token_expiry_timestamp: Math.floor((createdMs + 180 * DAY) / 1000),
  title: 'Offers',
})

onEveryStore('marketing routes', (kind) => {
  let t: TestApp
  let n = 0
  beforeAll(async () => {
    t = await startTestApp(kind, { graph, marketingGraph }, { TOKEN_ENCRYPTION_KEY: KEY.toString('base64') })
  })
  afterAll(() => t.close())

  async function owner(): Promise<{ who: LoggedIn; pageId: string; fb: string }> {
    const fb = `${kind === 'pglite' ? 91 : 92}0${++n}`
    const who = await login(t.app, fb)
    const pageId = `6${fb}`
    await registerPage(t.app, who, pageId)
    return { who, pageId, fb }
  }
  const call = (
    who: LoggedIn | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url: `/api/v2${url}`,
      headers: who ? who.auth : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  const enable = (who: LoggedIn, pageId: string, fb: string, extra: Record<string, unknown> = {}) =>
    call(who, 'PUT', `/pages/${pageId}/marketing`, {
      page_token: marketingToken(pageId, fb),
      ad_account_id: 'act_1',
      ...extra,
    })

  it('answers the state of a page that never turned marketing messages on', async () => {
    const { who, pageId } = await owner()
    const res = await call(who, 'GET', `/pages/${pageId}/marketing`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      enabled: false,
      ad_account: null,
      country: null,
      available: null,
      subscribers: { active: 0, stopped: 0 },
      tokens_synced_at: null,
      optin_title_default: 'Updates and promotions',
    })
  })

  it('answers only for a page bound to the caller', async () => {
    const { pageId } = await owner()
    const stranger = (await owner()).who
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['GET', ''],
      ['POST', '/ad-accounts', { user_token: 'x' }],
      ['PUT', '', { page_token: 'x', ad_account_id: 'act_1' }],
      ['DELETE', ''],
      ['POST', '/sync', { page_token: 'x' }],
      ['GET', '/subscribers'],
      ['POST', '/optin-requests/check', { psids: ['1'], title: 'x' }],
      ['POST', '/optin-requests', { psids: ['1'], title: 'x' }],
      ['POST', '/optin-requests', { messages: [{ psid: '1', message_id: 'm_1' }], title: 'x' }],
      ['GET', '/optin-requests?psid=1'],
    ]
    for (const [method, path, body] of routes) {
      expect((await call(stranger, method, `/pages/${pageId}/marketing${path}`, body)).statusCode).toBe(403)
      expect((await call(stranger, method, `/pages/not-a-page/marketing${path}`, body)).statusCode).toBe(404)
      expect((await call(null, method, `/pages/${pageId}/marketing${path}`, body)).statusCode).toBe(401)
    }
  })

  it('lists the ad accounts with whether each is active and offered marketing messages', async () => {
    const { who, pageId } = await owner()
    const res = await call(who, 'POST', `/pages/${pageId}/marketing/ad-accounts`, { user_token: 'fb:1' })
    expect(res.statusCode).toBe(200)
    expect(res.json().data).toEqual([
      { id: 'act_1', name: 'Tienda Sol Ads', currency: 'MXN', country: 'MX', active: true, available: true },
      { id: 'act_2', name: 'Sol Europe', currency: 'EUR', country: 'DE', active: true, available: false },
      { id: 'act_3', name: 'Old account', currency: 'MXN', country: 'MX', active: false, available: true },
    ])
    const refused = await call(who, 'POST', `/pages/${pageId}/marketing/ad-accounts`, { user_token: 'bad' })
    expect(refused.statusCode).toBe(422)
    expect(refused.json()).toMatchObject({
      errors: { user_token: ['permission_declined'] },
      code: 'permission_declined',
    })
    const noAds = await call(who, 'POST', `/pages/${pageId}/marketing/ad-accounts`, { user_token: 'no-ads' })
    expect(noAds.json()).toMatchObject({ errors: { user_token: ['permission_declined'] } })
    const down = await call(who, 'POST', `/pages/${pageId}/marketing/ad-accounts`, { user_token: 'down' })
    expect(down.statusCode).toBe(502)
    for (const body of [{}, { user_token: '' }, { user_token: 'x', more: 1 }]) {
      const bad = await call(who, 'POST', `/pages/${pageId}/marketing/ad-accounts`, body)
      expect(bad.statusCode).toBe(422)
      expect(bad.json().errors).toBeTruthy()
    }
  })

  it('turns on with an active ad account in a served region, syncing the token list once', async () => {
    const { who, pageId, fb } = await owner()
    tokenLists.set(pageId, [
      { data: [entry('11', Date.now() - DAY), entry('12', Date.now() - DAY)], paging: { cursors: { after: '1' }, next: 'n' } },
      { data: [entry('13', Date.now() - DAY)], paging: { cursors: { after: '2' } } },
    ]) // prettier-ignore
    const res = await enable(who, pageId, fb)
    expect(res.statusCode).toBe(200)
    const state = res.json()
    expect(state).toMatchObject({
      enabled: true,
      ad_account: { id: 'act_1', name: 'Tienda Sol Ads', currency: 'MXN' },
      country: 'MX',
      available: true,
      subscribers: { active: 3, stopped: 0 },
    })
    expect(Date.parse(state.tokens_synced_at)).toBeGreaterThan(Date.now() - 60_000)
    const [synced] = await t.app.store.query<{ tokens_cursor: string }>(
      'SELECT tokens_cursor FROM marketing_pages WHERE page_id = $1',
      [pageId],
    )
    expect(synced!.tokens_cursor).toBe('2')
    expect(tokenCalls.filter((c) => c.pageId === pageId)).toEqual([
      { pageId, after: undefined },
      { pageId, after: '1' },
    ])
    expect((await call(who, 'GET', `/pages/${pageId}/marketing`)).json()).toEqual(state)
    const heard = await t.app.store.query<{ data: { active: number } }>(
      `SELECT data FROM owner_events WHERE user_id = $1 AND type = 'marketing_subscribers' ORDER BY id`,
      [who.user.id],
    )
    expect(heard.at(-1)?.data).toEqual({ pageId, active: 3, stopped: 0 })
  })

  it('refuses to turn on with a token lacking the permissions, of another page, or with an unusable ad account', async () => {
    const { who, pageId, fb } = await owner()
    const cases: [Record<string, unknown>, string, string][] = [
      [{ page_token: marketingToken(pageId, fb, 'ads_management') }, 'page_token', 'permission_declined'],
      [{ page_token: marketingToken('5999', fb) }, 'page_token', 'page_permission'],
      [{ page_token: marketingToken(pageId, '1') }, 'page_token', 'page_permission'],
      [{ page_token: 'made-up' }, 'page_token', 'page_permission'],
      [{ ad_account_id: 'act_3' }, 'ad_account_id', 'ad_account_inactive'],
      [{ ad_account_id: 'act_2' }, 'ad_account_id', 'region_unavailable'],
      [{ ad_account_id: 'act_404' }, 'ad_account_id', 'no_ad_account'],
      [{ ad_account_id: 'act_9' }, 'ad_account_id', 'no_ad_account'],
    ]
    for (const [extra, field, code] of cases) {
      const res = await enable(who, pageId, fb, extra)
      expect(res.statusCode, code).toBe(422)
      expect(res.json()).toMatchObject({ errors: { [field]: [code] }, code })
    }
    for (const extra of [{ ad_account_id: '123' }, { page_token: '' }, { extra: true }]) {
      const res = await enable(who, pageId, fb, extra)
      expect(res.statusCode).toBe(422)
      expect(res.json().errors).toBeTruthy()
    }
    expect(await t.app.store.query('SELECT 1 FROM marketing_pages WHERE page_id = $1', [pageId])).toEqual([])
  })

  it('turns off keeping the subscribers', async () => {
    const { who, pageId, fb } = await owner()
    tokenLists.set(pageId, [{ data: [entry('21', Date.now() - DAY)] }])
    await enable(who, pageId, fb)
    const res = await call(who, 'DELETE', `/pages/${pageId}/marketing`)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      enabled: false,
      subscribers: { active: 1 },
      ad_account: { id: 'act_1' },
    })
    expect((await call(who, 'GET', `/pages/${pageId}/marketing/subscribers`)).json()).toEqual({
      psids: ['21'],
    })
  })

  it('syncs the token list without duplicates and without bringing back a later opt-out', async () => {
    const { who, pageId, fb } = await owner()
    const created = Date.now() - 3 * DAY
    // 32 opted out after the token the list still shows was created.
    await t.app.store.transaction((tx) =>
      applySubscriberEvent(tx, tokenBox(KEY), {
        pageId,
        psid: '32',
        at: created + DAY,
        kind: 'stop',
        source: 'webhook',
      }),
    )
    tokenLists.set(pageId, [
      { data: [entry('31', created), entry('32', created)], paging: { cursors: { after: '1' }, next: 'n' } },
      { data: [entry('31', created), entry('33', created)] },
    ]) // prettier-ignore
    const sync = () =>
      call(who, 'POST', `/pages/${pageId}/marketing/sync`, { page_token: marketingToken(pageId, fb) })
    const first = await sync()
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ active: 2, stopped: 1, added: 2, removed: 0 })
    expect((await sync()).json()).toEqual({ active: 2, stopped: 1, added: 0, removed: 0 })
    const subscribers = await call(who, 'GET', `/pages/${pageId}/marketing/subscribers`)
    expect(subscribers.json()).toEqual({ psids: ['31', '33'] })
    expect(subscribers.body).not.toContain('list-')
    const other = await call(who, 'POST', `/pages/${pageId}/marketing/sync`, {
      page_token: marketingToken('5998', fb),
    })
    expect(other.json()).toMatchObject({ errors: { page_token: ['page_permission'] } })
    expect(other.json().message).toMatch(/another page/)
    expect((await call(who, 'POST', `/pages/${pageId}/marketing/sync`, {})).statusCode).toBe(422)
  })

  it('drops the active subscribers a complete sync no longer lists, answering how many', async () => {
    const { who, pageId, fb } = await owner()
    const created = Date.now() - 3 * DAY
    tokenLists.set(pageId, [
      { data: [entry('31', created), entry('32', created)], paging: { cursors: { after: '1' }, next: 'n' } },
      { data: [entry('33', created), entry('34', created)] },
    ]) // prettier-ignore
    const sync = () =>
      call(who, 'POST', `/pages/${pageId}/marketing/sync`, { page_token: marketingToken(pageId, fb) })
    expect((await sync()).json()).toEqual({ active: 4, stopped: 0, added: 4, removed: 0 })
    // 32 and 34 opted out while their webhooks were lost (or their tokens lapsed): the network lists them no more.
    tokenLists.set(pageId, [
      { data: [entry('31', created)], paging: { cursors: { after: '1' }, next: 'n' } },
      { data: [entry('33', created)] },
    ]) // prettier-ignore
    expect((await sync()).json()).toEqual({ active: 2, stopped: 0, added: 0, removed: 2 })
    expect((await call(who, 'GET', `/pages/${pageId}/marketing/subscribers`)).json()).toEqual({
      psids: ['31', '33'],
    })
    const rows = await t.app.store.query<{ psid: string; status: string }>(
      'SELECT psid, status FROM marketing_subscribers WHERE page_id = $1 ORDER BY psid',
      [pageId],
    )
    expect(rows.map((r) => `${r.psid}:${r.status}`)).toEqual([
      '31:active',
      '32:expired',
      '33:active',
      '34:expired',
    ])
    const state = await call(who, 'GET', `/pages/${pageId}/marketing`)
    expect(state.json().subscribers).toEqual({ active: 2, stopped: 0 })
  })

  it('changes nobody when the sync fails mid-way, and drops nobody when the list never ends', async () => {
    const { who, pageId, fb } = await owner()
    const created = Date.now() - 3 * DAY
    tokenLists.set(pageId, [{ data: [entry('41', created), entry('42', created)] }])
    const sync = () =>
      call(who, 'POST', `/pages/${pageId}/marketing/sync`, { page_token: marketingToken(pageId, fb) })
    expect((await sync()).json()).toEqual({ active: 2, stopped: 0, added: 2, removed: 0 })
    const subscribers = async () => (await call(who, 'GET', `/pages/${pageId}/marketing/subscribers`)).json()
    // The second page of the list cannot be read: neither 43 of the first page is added nor 42 dropped.
    tokenLists.set(pageId, [
      { data: [entry('41', created), entry('43', created)], paging: { cursors: { after: '1' }, next: 'n' } },
      { data: [] },
    ]) // prettier-ignore
    tokenHooks.set(pageId, async (i) => {
      if (i === 1) throw graphError(100, 'Please reduce the amount of data you are asking for.')
    })
    const failed = await sync()
    expect(failed.statusCode).toBe(422)
    expect(await subscribers()).toEqual({ psids: ['41', '42'] })
    // A list whose cursor comes back to a page already read is never read to its end: 42 is not dropped.
    tokenHooks.delete(pageId)
    tokenLists.set(pageId, [
      { data: [entry('41', created)], paging: { cursors: { after: '1' }, next: 'n' } },
      { data: [entry('41', created)], paging: { cursors: { after: '1' }, next: 'n' } },
    ]) // prettier-ignore
    expect((await sync()).json()).toEqual({ active: 2, stopped: 0, added: 0, removed: 0 })
    expect(await subscribers()).toEqual({ psids: ['41', '42'] })
  })

  it('keeps a person whose opt-in webhook arrives while the sync reads the list', async () => {
    const { who, pageId, fb } = await owner()
    const created = Date.now() - 3 * DAY
    tokenLists.set(pageId, [{ data: [entry('51', created), entry('52', created), entry('54', created)] }])
    const sync = () =>
      call(who, 'POST', `/pages/${pageId}/marketing/sync`, { page_token: marketingToken(pageId, fb) })
    expect((await sync()).json()).toEqual({ active: 3, stopped: 0, added: 3, removed: 0 })
    const started = Date.now()
    const optin = (psid: string, at: number) =>
      t.app.store.transaction((tx) =>
        applySubscriberEvent(tx, tokenBox(KEY), {
          pageId,
          psid,
          at,
          kind: 'optin',
          token: `hook-${psid}`,
          source: 'webhook',
        }),
      )
    // The list was read before these opt-ins reached the network: 53 (new) opted in after the sync started,
    // 52 opted in again a moment before it started but its webhook arrived during the read. 54 is gone.
    tokenLists.set(pageId, [
      { data: [entry('51', created)], paging: { cursors: { after: '1' }, next: 'n' } },
      { data: [] },
    ]) // prettier-ignore
    tokenHooks.set(pageId, async (i) => {
      if (i !== 1) return
      await optin('53', Date.now() + 1000)
      await optin('52', started - 1000)
    })
    expect((await sync()).json()).toEqual({ active: 3, stopped: 0, added: 0, removed: 1 })
    tokenHooks.delete(pageId)
    expect((await call(who, 'GET', `/pages/${pageId}/marketing/subscribers`)).json()).toEqual({
      psids: ['51', '52', '53'],
    })
  })

  it('checks and records opt-in requests: once per title per person per week, never to subscribers', async () => {
    const { who, pageId, fb } = await owner()
    tokenLists.set(pageId, [{ data: [entry('41', Date.now() - DAY)] }])
    await enable(who, pageId, fb)
    const url = `/pages/${pageId}/marketing/optin-requests`
    const recorded = await call(who, 'POST', url, { psids: ['42', '42', '43'], title: ' Offers ' })
    expect(recorded.statusCode).toBe(200)
    expect(recorded.json()).toEqual({ recorded: 2 })
    const check = await call(who, 'POST', `${url}/check`, { psids: ['41', '42', '44'], title: 'Offers' })
    expect(check.statusCode).toBe(200)
    const body = check.json()
    expect(body.allowed).toEqual(['44'])
    expect(body.refused).toMatchObject([
      { psid: '41', reason: 'subscribed' },
      { psid: '42', reason: 'asked_this_week' },
    ])
    expect(Date.parse(body.refused[1].next_at) - Date.now()).toBeGreaterThan(7 * DAY - 60_000)
    expect(
      (await call(who, 'POST', `${url}/check`, { psids: ['42'], title: 'News' })).json().allowed,
    ).toEqual(['42'])
    for (const bad of [
      { psids: [], title: 'Offers' },
      { psids: ['abc'], title: 'Offers' },
      { psids: ['1'], title: '' },
      { psids: ['1'], title: 'x'.repeat(66) },
      { psids: ['1'] },
      { psids: ['1'], title: 'a\u0000b' },
    ]) {
      for (const path of [url, `${url}/check`]) {
        const res = await call(who, 'POST', path, bad)
        expect(res.statusCode).toBe(422)
        expect(res.json().errors).toBeTruthy()
      }
    }
  })

  it("keeps each opt-in request message by the network's id and reads one customer's back, newest first", async () => {
    const { who, pageId } = await owner()
    const url = `/pages/${pageId}/marketing/optin-requests`
    const first = await call(who, 'POST', url, {
      messages: [
        { psid: '42', message_id: 'm_1' },
        { psid: '43', message_id: 'm_2' },
      ],
      title: ' Offers ',
    })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ recorded: 2 })
    // A later request to 42, and the first one recorded again (it keeps its title and time).
    await new Promise((resolve) => setTimeout(resolve, 5))
    await call(who, 'POST', url, { messages: [{ psid: '42', message_id: 'm_3' }], title: 'News' })
    await call(who, 'POST', url, { messages: [{ psid: '42', message_id: 'm_1' }], title: 'Other' })

    const read = await call(who, 'GET', `${url}?psid=42`)
    expect(read.statusCode).toBe(200)
    const data = (read.json() as { data: { message_id: string; title: string; sent_at: string }[] }).data
    expect(data.map((r) => [r.message_id, r.title])).toEqual([
      ['m_3', 'News'],
      ['m_1', 'Offers'],
    ])
    expect(Date.parse(data[0]!.sent_at)).toBeGreaterThan(Date.parse(data[1]!.sent_at))
    expect((await call(who, 'GET', `${url}?psid=43`)).json().data).toMatchObject([{ message_id: 'm_2' }])
    expect((await call(who, 'GET', `${url}?psid=44`)).json()).toEqual({ data: [] })
    // The messages count for the weekly limit as the people named alone do.
    const check = await call(who, 'POST', `${url}/check`, { psids: ['42', '44'], title: 'Offers' })
    expect(check.json().allowed).toEqual(['44'])

    // Another owner's page with the same customer id shows none of them.
    const other = await owner()
    const theirs = await call(other.who, 'GET', `/pages/${other.pageId}/marketing/optin-requests?psid=42`)
    expect(theirs.json()).toEqual({ data: [] })
    expect((await call(other.who, 'GET', `${url}?psid=42`)).statusCode).toBe(403)
  })

  it('answers at most the newest 50 of a customer', async () => {
    const { who, pageId } = await owner()
    const url = `/pages/${pageId}/marketing/optin-requests`
    for (const batch of [0, 1]) {
      const messages = Array.from({ length: 30 }, (_, i) => ({
        psid: '42',
        message_id: `m_${batch}_${String(i).padStart(2, '0')}`,
      }))
      expect((await call(who, 'POST', url, { messages, title: `T${batch}` })).statusCode).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const data = (await call(who, 'GET', `${url}?psid=42`)).json().data as { message_id: string }[]
    expect(data).toHaveLength(50)
    expect(data.slice(0, 30).every((r) => r.message_id.startsWith('m_1_'))).toBe(true)
  })

  it('refuses a bad record of opt-in request messages or a bad read with 422 and the errors', async () => {
    const { who, pageId } = await owner()
    const url = `/pages/${pageId}/marketing/optin-requests`
    for (const bad of [
      { title: 'Offers' },
      { messages: [], title: 'Offers' },
      { messages: [{ psid: 'abc', message_id: 'm_1' }], title: 'Offers' },
      { messages: [{ psid: '1' }], title: 'Offers' },
      { messages: [{ psid: '1', message_id: '' }], title: 'Offers' },
      { messages: [{ psid: '1', message_id: 'm 1' }], title: 'Offers' },
      { messages: [{ psid: '1', message_id: 'm'.repeat(257) }], title: 'Offers' },
      { messages: [{ psid: '1', message_id: 'm_1', extra: true }], title: 'Offers' },
      { messages: [{ psid: '1', message_id: 'm_1' }] },
      { messages: [{ psid: '1', message_id: 'm_1' }], title: 'x'.repeat(66) },
      { messages: 'm_1', title: 'Offers' },
    ]) {
      const res = await call(who, 'POST', url, bad)
      expect(res.statusCode, JSON.stringify(bad)).toBe(422)
      expect(Object.keys(res.json().errors).length).toBeGreaterThan(0)
    }
    for (const query of [
      '',
      '?psid=',
      '?psid=abc',
      '?psid=1&psid=2',
      '?psid=1&limit=5',
      `?psid=${'1'.repeat(65)}`,
    ]) {
      const res = await call(who, 'GET', `${url}${query}`)
      expect(res.statusCode, query).toBe(422)
      expect(Object.keys(res.json().errors).length).toBeGreaterThan(0)
    }
    expect((await call(who, 'GET', `${url}?psid=1`)).json()).toEqual({ data: [] })
  })
})

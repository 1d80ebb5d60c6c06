/**
 * `POST /api/v2/messages/:id/marketing` and `GET /api/v2/pages/:pageId/marketing/estimate`: validation (422),
 * a stale lease (409), a page without marketing messages (409), the campaign created once however often the
 * start is retried, and the job handed to the server sender.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { MarketingJobGraph } from '../bulk/marketing.ts'
import { GraphError } from '../../core/graph/errors.ts'
import {
  type LoggedIn,
  type TestApp,
  login,
  onEveryStore,
  registerPage,
  setAllowance,
  startTestApp,
} from '../testing/harness.ts'

class FakeMarketing implements MarketingJobGraph {
  created: { adAccountId: string; name: string; pageId: string; budget: unknown }[] = []
  /** The network's refusal of the next campaign creation. */
  refuse?: GraphError
  async createCampaign(
    adAccountId: string,
    _token: string,
    input: { name: string; pageId: string; budget: unknown },
  ) {
    const refusal = this.refuse
    this.refuse = undefined
    if (refusal) throw refusal
    this.created.push({ adAccountId, ...input })
    return { id: `camp${this.created.length}` }
  }
  async createMarketingMessage(_a: string, _t: string, input: { campaignId: string }) {
    return { id: input.campaignId }
  }
  async campaign(id: string) {
    return { id, status: 'ACTIVE', spendMinor: 0, delivered: 0 }
  }
  sends = 0
  async sendMarketingMessage() {
    this.sends++
    return { success: true }
  }
}

onEveryStore('marketing jobs', (kind) => {
  let t: TestApp
  let n = 0
  const network = new FakeMarketing()
  beforeAll(async () => {
    t = await startTestApp(
      kind,
      {
        marketingJobGraph: network,
        // The server's own Graph calls (standard sends) are not part of these tests.
        fetch: (async () => new Response('{}', { status: 500 })) as never,
      },
      { SERVER_SENDER: 'true' },
    )
    // Migration 008's tables as far as these routes read them.
    await t.app.store
      .exec(`CREATE TABLE IF NOT EXISTS marketing_pages (page_id TEXT PRIMARY KEY, user_id BIGINT,
        ad_account_id TEXT, ad_account_name TEXT, currency TEXT, country TEXT, enabled BOOLEAN NOT NULL DEFAULT false);
      CREATE TABLE IF NOT EXISTS marketing_subscribers (page_id TEXT NOT NULL, psid TEXT NOT NULL, token BYTEA NOT NULL,
        status TEXT NOT NULL, expires_at TIMESTAMPTZ, PRIMARY KEY (page_id, psid))`)
  })
  afterAll(() => t.close())

  async function page(enabled = true): Promise<{ who: LoggedIn; pageId: string }> {
    const pageId = `${kind === 'pglite' ? 5 : 6}40${++n}`
    const who = await login(t.app, pageId)
    await registerPage(t.app, who, pageId)
    await setAllowance(t.app, pageId, { subscriptions_messages: 100 })
    await t.app.store.query(
      `INSERT INTO marketing_pages (page_id, user_id, ad_account_id, ad_account_name, currency, country, enabled)
         VALUES ($1, $2, 'act_77', 'Tienda Sol Ads', 'MXN', 'MX', $3)`,
      [pageId, who.user.id, enabled],
    )
    return { who, pageId }
  }

  async function job(who: LoggedIn, pageId: string, kind: 'marketing' | 'standard' = 'marketing') {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v2/messages',
      headers: who.auth,
      payload: {
        page_id: pageId,
        message_type_id: 1,
        message: 'Sale today',
        label: '[]',
        total_messages: 2,
        branded_messages_amount: 0,
        kind,
      },
    })
    const id = (created.json() as { id: string }).id
    await t.app.inject({
      method: 'PUT',
      url: `/api/v2/messages/${id}/recipients`,
      headers: who.auth,
      payload: {
        recipients: [
          { recipient_id: '1', name: 'A', conversation_id: 'c1', way: 'marketing' },
          { recipient_id: '2', name: 'B', conversation_id: 'c2', way: 'marketing' },
        ],
      },
    })
    return id
  }

  const start = (who: LoggedIn, id: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/api/v2/messages/${id}/marketing`, headers: who.auth, payload })

  const good = { page_token: 'page-token', budget: { kind: 'total', minor: 5_000 }, lease: 0 }

  it('estimates the price of N marketing messages in the ad account currency', async () => {
    const { who, pageId } = await page()
    const res = await t.app.inject({
      url: `/api/v2/pages/${pageId}/marketing/estimate?count=40`,
      headers: who.auth,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ currency: 'MXN', per_message_minor: 85, estimate_minor: 3_400 })
    const bad = await t.app.inject({
      url: `/api/v2/pages/${pageId}/marketing/estimate?count=-1`,
      headers: who.auth,
    })
    expect(bad.statusCode).toBe(422)
    expect(bad.json()).toMatchObject({ errors: { count: expect.any(Array) } })
    const off = await page(false)
    const refused = await t.app.inject({
      url: `/api/v2/pages/${off.pageId}/marketing/estimate?count=1`,
      headers: off.who.auth,
    })
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({ code: 'marketing_off' })
  })

  it('refuses a bad body (422), a stale lease (409) and a page with marketing off (409), creating nothing', async () => {
    const { who, pageId } = await page()
    const id = await job(who, pageId)
    const before = network.created.length
    const notWhole = await start(who, id, { ...good, budget: { kind: 'total', minor: 10.5 } })
    expect(notWhole.statusCode).toBe(422)
    expect(notWhole.json()).toMatchObject({ errors: { 'budget.minor': expect.any(Array) } })
    const tooSmall = await start(who, id, { ...good, budget: { kind: 'daily', minor: 10 } })
    expect(tooSmall.statusCode).toBe(422)
    expect(tooSmall.json()).toMatchObject({ errors: { 'budget.minor': ['budget_too_small'] } })
    const stale = await start(who, id, { ...good, lease: 3 })
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({ code: 'lease_conflict' })
    const off = await page(false)
    const offJob = await job(off.who, off.pageId)
    const refused = await start(off.who, offJob, good)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({ code: 'marketing_off' })
    expect(network.created.length).toBe(before)
  })

  it("answers the network's refusal of the campaign as what it is, with the network's own words", async () => {
    const { who, pageId } = await page()
    const id = await job(who, pageId)
    network.refuse = new GraphError({
      kind: 'config',
      code: 200,
      httpStatus: 403,
      message: '(#200) Requires ads_management permission',
    })
    const refused = await start(who, id, good)
    expect(refused.statusCode).toBe(422)
    expect(refused.json()).toMatchObject({
      code: 'network:config',
      message: '(#200) Requires ads_management permission',
      errors: { network: ['(#200) Requires ads_management permission'] },
    })
    expect(refused.json().errors).not.toHaveProperty('budget')
    // Nothing was created or handed over: the same start goes through once the network agrees.
    const started = await start(who, id, good)
    expect(started.statusCode).toBe(200)
  })

  it('gives a campaign only to a job created as a marketing job, and a hand-over only of its own kind', async () => {
    const { who, pageId } = await page()
    const campaignsBefore = network.created.length
    const standard = await job(who, pageId, 'standard')
    const refused = await start(who, standard, good)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({ code: 'kind_mismatch', errors: { kind: ['standard'] } })
    const marketing = await job(who, pageId)
    const handover = await t.app.inject({
      method: 'POST',
      url: `/api/v2/messages/${marketing}/handover`,
      headers: who.auth,
      payload: { lease: 0, page_token: 'page-token', kind: 'standard' },
    })
    expect(handover.statusCode).toBe(409)
    expect(handover.json()).toMatchObject({ code: 'kind_mismatch' })
    expect(network.created.slice(campaignsBefore)).toEqual([])
    const listed = await t.app.inject({ url: '/api/v2/messages?state=open', headers: who.auth })
    expect((listed.json() as { data: { id: string; kind: string }[] }).data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: standard, kind: 'standard' }),
        expect.objectContaining({ id: marketing, kind: 'marketing' }),
      ]),
    )
  })

  it('creates the campaign once, hands the job to the server, and answers a retry the same', async () => {
    const { who, pageId } = await page()
    const id = await job(who, pageId)
    const before = network.created.length
    const first = await start(who, id, good)
    expect(first.statusCode).toBe(200)
    const answer = first.json() as { campaign_id: string; currency: string; estimate_minor: number }
    expect(answer).toMatchObject({ currency: 'MXN', estimate_minor: 170, sender: 'server' })
    expect(network.created.slice(before)).toEqual([
      {
        adAccountId: 'act_77',
        name: `Pagecast ${id}`,
        pageId,
        budget: { kind: 'total', minor: 5_000 },
      },
    ])
    const again = await start(who, id, good)
    expect(again.statusCode).toBe(200)
    expect(again.json()).toMatchObject({ campaign_id: answer.campaign_id, estimate_minor: 170 })
    expect(network.created.length).toBe(before + 1)
    const row = (
      await t.app.store.query<Record<string, unknown>>(
        `SELECT sender, campaign_id, marketing_message_id, budget_kind, budget_minor::int AS budget_minor, currency
           FROM messages WHERE id = $1`,
        [id],
      )
    )[0]
    expect(row).toEqual({
      sender: 'server',
      campaign_id: answer.campaign_id,
      marketing_message_id: answer.campaign_id,
      budget_kind: 'total',
      budget_minor: 5_000,
      currency: 'MXN',
    })
    // The server sent it: nobody is subscribed, so nobody was sent a marketing message (or charged).
    await expect
      .poll(
        async () =>
          (
            await t.app.store.query<{ state: string; ng_count: number }>(
              'SELECT state, ng_count FROM messages WHERE id = $1',
              [id],
            )
          )[0],
        { timeout: 20_000 },
      )
      .toEqual({ state: 'finished', ng_count: 2 })
    expect(network.sends).toBe(0)
    // The stored job shows its campaign after a reload.
    const list = await t.app.inject({ url: '/api/v2/messages', headers: who.auth })
    const stored = (list.json() as { data: { id: string; marketing: unknown }[] }).data.find(
      (m) => m.id === id,
    )
    expect(stored?.marketing).toMatchObject({
      currency: 'MXN',
      budget_kind: 'total',
      budget_minor: 5_000,
      estimate_minor: 170,
    })
  })

  it('resumes a job a marketing failure stopped, with its campaign, where it stopped', async () => {
    const { who, pageId } = await page()
    const id = await job(who, pageId)
    expect((await start(who, id, good)).statusCode).toBe(200)
    const before = network.created.length
    await expect
      .poll(
        async () =>
          (await t.app.store.query<{ state: string }>('SELECT state FROM messages WHERE id = $1', [id]))[0]!
            .state,
        {
          timeout: 20_000,
        },
      )
      .toBe('finished')
    // As if the budget had been spent before the last person: stopped, one left.
    await t.app.store.query(
      `UPDATE messages SET state = 'stopped', stop_reason = 'marketing:budget_spent', skipped_count = 1,
          ng_count = ng_count - 1 WHERE id = $1`,
      [id],
    )
    await t.app.store.query(
      `UPDATE message_recipients SET status = NULL, error_data = NULL, attempt_at = NULL
        WHERE message_id = $1 AND recipient_id = '2'`,
      [id],
    )
    const resumed = await start(who, id, { ...good, lease: 0 })
    expect(resumed.statusCode).toBe(200)
    expect(network.created.length).toBe(before)
    await expect
      .poll(
        async () =>
          (
            await t.app.store.query<{ state: string; ng: number; skipped: number }>(
              'SELECT state, ng_count AS ng, skipped_count AS skipped FROM messages WHERE id = $1',
              [id],
            )
          )[0],
        { timeout: 20_000 },
      )
      .toEqual({ state: 'finished', ng: 2, skipped: 0 })
  })
})

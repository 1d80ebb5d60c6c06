/**
 * Marketing messages and opt-in requests in the server sender, with fake network calls: a subscriber is sent
 * the campaign's marketing message with their token read at the moment of the send, someone who opted out
 * since is never sent (nor charged), a paused campaign or a spent budget stops the job with nothing lost or
 * sent twice and a resume continues there, an uncertain marketing send is reconciled against the
 * conversation, and a delivered opt-in request is recorded for the weekly limit.
 */
import { BROADCAST_METADATA } from '../../core/contracts/conversation-states.ts'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SenderGraph } from '../../core/bulk/ports.ts'
import { GraphError } from '../../core/graph/errors.ts'
import type { ChatMessage, SendRequest } from '../../core/graph/types.ts'
import {
  type TestApp,
  login,
  onEveryStore,
  registerPage,
  setAllowance,
  startTestApp,
} from '../testing/harness.ts'
import type { MarketingJobGraph } from './marketing.ts'
import { runSlice, type OwnerEvent, type ServerSenderDeps } from './server-sender.ts'
import { tokenBox } from './token-box.ts'

/** The network's answer to a marketing call, with the name the Graph client gives its code. */
function marketingError(name: string, code: number): GraphError {
  return Object.assign(new GraphError({ kind: 'config', message: name, code }), { marketing: name })
}

class FakeNetwork implements SenderGraph, MarketingJobGraph {
  sent: SendRequest[] = []
  marketing: { subscriptionToken: string; text: string; messageId: string }[] = []
  conversation: ChatMessage[] = []
  spendMinor = 0
  status = 'ACTIVE'
  failMarketing: Error | undefined
  campaigns = 0
  async send(_page: string, _token: string, req: SendRequest) {
    this.sent.push(req)
    return { recipient_id: req.recipientId, message_id: `m${this.sent.length}` }
  }
  async uploadAttachment() {
    return { attachment_id: 'a1' }
  }
  async messages() {
    return { data: this.conversation }
  }
  async createCampaign() {
    return { id: `camp${++this.campaigns}` }
  }
  async createMarketingMessage(_a: string, _t: string, input: { campaignId: string }) {
    return { id: input.campaignId }
  }
  async campaign(id: string) {
    return { id, status: this.status, spendMinor: this.spendMinor, delivered: 0 }
  }
  async sendMarketingMessage(
    _account: string,
    _token: string,
    input: { messageId: string; subscriptionToken: string; text: string },
  ) {
    if (this.failMarketing) throw this.failMarketing
    this.marketing.push(input)
    this.spendMinor += 85
    return { success: true, marketing_message_tracking_id: `t${this.marketing.length}` }
  }
}

onEveryStore('the server sender with marketing messages', (kind) => {
  let t: TestApp
  let n = 0
  const box = tokenBox(randomBytes(32))
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { SERVER_SENDER: 'false' })
    // The weekly record of opt-in requests (migration 008's table).
    await t.app.store
      .exec(`CREATE TABLE IF NOT EXISTS optin_requests (page_id TEXT NOT NULL, psid TEXT NOT NULL,
      title TEXT NOT NULL, sent_at TIMESTAMPTZ NOT NULL, PRIMARY KEY (page_id, psid, title))`)
  })
  afterAll(() => t.close())

  /** A job whose recipients are `ways` in order (r0, r1, …), with a campaign when any is marketing. */
  async function job(
    ways: ('standard' | 'marketing')[],
    extra: Record<string, unknown> = {},
    handover: Record<string, unknown> = {},
  ) {
    const fb = `${kind === 'pglite' ? 5 : 6}30${++n}`
    const who = await login(t.app, fb)
    await registerPage(t.app, who, fb)
    await setAllowance(t.app, fb, { subscriptions_messages: 100 })
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v2/messages',
      headers: who.auth,
      payload: {
        page_id: fb,
        message_type_id: 1,
        message: 'Sale today',
        label: '[]',
        total_messages: ways.length,
        branded_messages_amount: 0,
        ...(ways.includes('marketing') ? { kind: 'marketing' } : {}),
        ...extra,
      },
    })
    expect(created.statusCode).toBe(201)
    const id = (created.json() as { id: string }).id
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v2/messages/${id}/recipients`,
      headers: who.auth,
      payload: {
        recipients: ways.map((way, i) => ({
          recipient_id: `${i}`,
          name: `R ${i}`,
          conversation_id: `c${i}`,
          ...(way === 'marketing' ? { way } : {}),
        })),
      },
    })
    expect(put.statusCode).toBe(200)
    const { handOver } = await import('./jobs.ts')
    await handOver(t.app.store, box, who.user.id, id, {
      lease: 0,
      page_token: 'page-token-secret',
      cursor: 0,
      results: [],
      uncertain: [],
      ...handover,
    } as never)
    return { id, who, pageId: fb }
  }

  async function withCampaign(id: string, budget: { kind: 'daily' | 'total'; minor: number }) {
    await t.app.store.query(
      `UPDATE messages SET ad_account_id = 'act_1', campaign_id = 'camp9', marketing_message_id = 'camp9',
          budget_kind = $2, budget_minor = $3, currency = 'MXN', estimate_minor = 170 WHERE id = $1`,
      [id, budget.kind, budget.minor],
    )
  }

  /**
   * An earlier run sent to person 0 and died before recording it: the recipient is left uncertain, and the
   * page's message is in the conversation the network answers.
   */
  async function sentUnrecorded(id: string, pageId: string, message: { id: string; text: string }) {
    await t.app.store.query(
      `UPDATE message_recipients SET attempt_at = now() - interval '1 second', attempts = 1
        WHERE message_id = $1 AND recipient_id = '0'`,
      [id],
    )
    const network = new FakeNetwork()
    network.conversation = [
      {
        id: message.id,
        created_time: new Date().toISOString(),
        from: { id: pageId },
        message: message.text,
      } as ChatMessage,
    ]
    return network
  }

  function deps(
    network: FakeNetwork,
    subscribers: Map<string, string>,
    events: OwnerEvent[] = [],
    lookups: string[] = [],
  ): ServerSenderDeps {
    return {
      store: t.app.store,
      graph: network,
      box,
      notify: async (_user, event) => void events.push(event),
      now: Date.now,
      random: () => 0,
      sleep: async () => undefined,
      pacingScale: 0.001,
      settleMs: 0,
      marketing: {
        graph: network,
        subscriberToken: async (_page, psid) => {
          lookups.push(psid)
          return subscribers.get(psid) ?? null
        },
      },
    }
  }

  async function results(id: string) {
    return t.app.store.query<{
      recipient_id: string
      status: string | null
      way: string
      error: string | null
    }>(
      `SELECT recipient_id, status, way, error_data->>'error_message' AS error FROM message_recipients
        WHERE message_id = $1 ORDER BY seq`,
      [id],
    )
  }

  it('sends subscribers the marketing message with the token read at the send, and never one who opted out', async () => {
    const { id } = await job(['standard', 'marketing', 'marketing', 'standard'])
    await withCampaign(id, { kind: 'total', minor: 10_000 })
    const network = new FakeNetwork()
    // Person 2 opted out after the audience was chosen: the lookup at the send says so.
    const subscribers = new Map([['1', 'token-of-1']])
    const lookups: string[] = []
    const events: OwnerEvent[] = []
    expect(await runSlice(deps(network, subscribers, events, lookups), id)).toEqual({
      kind: 'done',
      why: 'finished',
    })
    expect(network.sent.map((s) => [s.recipientId, s.text])).toEqual([
      ['0', 'Sale today'],
      ['3', 'Sale today'],
    ])
    expect(network.marketing).toEqual([
      { messageId: 'camp9', subscriptionToken: 'token-of-1', text: 'Sale today' },
    ])
    expect(lookups).toEqual(['1', '2'])
    expect(await results(id)).toEqual([
      { recipient_id: '0', status: 'OK', way: 'standard', error: null },
      { recipient_id: '1', status: 'OK', way: 'marketing', error: null },
      { recipient_id: '2', status: 'NG', way: 'marketing', error: 'marketing:not_subscribed' },
      { recipient_id: '3', status: 'OK', way: 'standard', error: null },
    ])
    // One Pagecast message per delivered message (3), none for the one not sent.
    const sub = await t.app.store.query<{ n: number }>(
      `SELECT subscriptions_messages AS n FROM subscriptions s JOIN messages m ON m.user_id = s.user_id WHERE m.id = $1`,
      [id],
    )
    expect(sub[0]!.n).toBe(97)
    // The spend is read at the end, stored, and published with the progress and in GET /messages.
    const stored = await t.app.store.query<{ spend_minor: string }>(
      'SELECT spend_minor::int AS spend_minor FROM messages WHERE id = $1',
      [id],
    )
    expect(stored[0]!.spend_minor).toBe(85)
    const progress = await t.app.store.query<{ data: { marketing?: unknown } }>(
      `SELECT data FROM owner_events WHERE type = 'bulk_progress' AND data->>'messageId' = $1`,
      [id],
    )
    expect(progress[0]!.data.marketing).toEqual({
      sent: 1,
      currency: 'MXN',
      budget_kind: 'total',
      budget_minor: 10_000,
      estimate_minor: 170,
      spend_minor: 85,
    })
    expect(events).toEqual([{ kind: 'finished', messageId: id, sent: 3 }])
  })

  it('stops on a paused campaign with nothing lost, and a resume continues where it stopped, each once', async () => {
    const { id, who } = await job(['marketing', 'marketing', 'marketing'])
    await withCampaign(id, { kind: 'daily', minor: 10_000 })
    const network = new FakeNetwork()
    const subscribers = new Map([
      ['0', 'a'],
      ['1', 'b'],
      ['2', 'c'],
    ])
    const events: OwnerEvent[] = []
    const run = deps(network, subscribers, events)
    const sendOnce = network.sendMarketingMessage.bind(network)
    let calls = 0
    network.sendMarketingMessage = async (...args) => {
      if (++calls === 2) throw marketingError('inactive_campaign', 2300000)
      return sendOnce(...args)
    }
    expect(await runSlice(run, id)).toEqual({ kind: 'done', why: 'stopped' })
    expect(events).toEqual([{ kind: 'stopped', messageId: id, reason: 'marketing:inactive_campaign' }])
    expect((await results(id)).map((r) => r.status)).toEqual(['OK', null, null])
    const pending = await t.app.store.query(
      'SELECT 1 FROM message_recipients WHERE message_id = $1 AND status IS NULL AND attempt_at IS NULL',
      [id],
    )
    expect(pending).toHaveLength(2)
    // The owner resumed the campaign; the job is handed over again and goes on from person 1.
    await t.app.store.query(
      `UPDATE messages SET state = 'open', sender = 'device', stop_reason = NULL WHERE id = $1`,
      [id],
    )
    const lease = (
      await t.app.store.query<{ lease: number }>('SELECT lease FROM messages WHERE id = $1', [id])
    )[0]!.lease
    const { handOver } = await import('./jobs.ts')
    await handOver(t.app.store, box, who.user.id, id, {
      lease,
      page_token: 'page-token-secret',
      results: [],
      uncertain: [],
    } as never)
    expect(await runSlice(run, id)).toEqual({ kind: 'done', why: 'finished' })
    expect(network.marketing.map((m) => m.subscriptionToken)).toEqual(['a', 'b', 'c'])
    expect((await results(id)).map((r) => r.status)).toEqual(['OK', 'OK', 'OK'])
  })

  it('stops when the spend reaches a total budget, and rejects only the recipient whose token is invalid', async () => {
    const { id } = await job(['marketing', 'marketing', 'marketing', 'marketing'])
    // Two messages at 85 each reach the budget of 170.
    await withCampaign(id, { kind: 'total', minor: 170 })
    const network = new FakeNetwork()
    const subscribers = new Map([
      ['0', 'a'],
      ['1', 'bad'],
      ['2', 'c'],
      ['3', 'd'],
    ])
    const sendOnce = network.sendMarketingMessage.bind(network)
    network.sendMarketingMessage = async (account, token, input) => {
      if (input.subscriptionToken === 'bad') throw marketingError('invalid_token', 2300004)
      return sendOnce(account, token, input)
    }
    const events: OwnerEvent[] = []
    // The spend is read after each send here (no 10 s throttle: the clock jumps).
    let clock = Date.now()
    const run = { ...deps(network, subscribers, events), now: () => (clock += 11_000) }
    expect(await runSlice(run, id, 10 ** 9)).toEqual({ kind: 'done', why: 'stopped' })
    expect(events).toEqual([{ kind: 'stopped', messageId: id, reason: 'marketing:budget_spent' }])
    expect(network.marketing.map((m) => m.subscriptionToken)).toEqual(['a', 'c'])
    expect((await results(id)).map((r) => [r.status, r.error])).toEqual([
      ['OK', null],
      ['NG', 'marketing:invalid_token'],
      ['OK', null],
      [null, null],
    ])
    const row = await t.app.store.query<{ skipped_count: number; spend: number }>(
      'SELECT skipped_count, spend_minor::int AS spend FROM messages WHERE id = $1',
      [id],
    )
    expect(row[0]).toEqual({ skipped_count: 1, spend: 170 })
  })

  it('reconciles an uncertain marketing send against the conversation instead of sending it again', async () => {
    const { id, pageId } = await job(['marketing', 'marketing'])
    await withCampaign(id, { kind: 'daily', minor: 10_000 })
    // An earlier run sent to person 0 and died before recording it; the message is in the conversation.
    const network = await sentUnrecorded(id, pageId, { id: 'x', text: 'Sale today' })
    const subscribers = new Map([
      ['0', 'a'],
      ['1', 'b'],
    ])
    expect(await runSlice(deps(network, subscribers), id)).toEqual({ kind: 'done', why: 'finished' })
    expect(network.marketing.map((m) => m.subscriptionToken)).toEqual(['b'])
    expect((await results(id)).map((r) => r.status)).toEqual(['OK', 'OK'])
  })

  it('stops a job whose marketing recipients have no campaign, sending nothing to them', async () => {
    const { id } = await job(['standard', 'marketing'])
    const network = new FakeNetwork()
    const events: OwnerEvent[] = []
    expect(await runSlice(deps(network, new Map([['1', 'b']]), events), id)).toEqual({
      kind: 'done',
      why: 'stopped',
    })
    expect(events).toEqual([{ kind: 'stopped', messageId: id, reason: 'marketing:campaign_setup' }])
    expect(network.sent.map((s) => s.recipientId)).toEqual(['0'])
    expect(network.marketing).toEqual([])
  })

  it('never sends a marketing recipient of a job not created as a marketing job: it stops before writing anything', async () => {
    const { id } = await job(['standard', 'marketing'], { kind: 'standard' })
    const network = new FakeNetwork()
    const events: OwnerEvent[] = []
    expect(await runSlice(deps(network, new Map([['1', 'b']]), events), id)).toEqual({
      kind: 'done',
      why: 'stopped',
    })
    expect(events).toEqual([{ kind: 'stopped', messageId: id, reason: 'kind_mismatch' }])
    expect(network.sent.map((s) => s.recipientId)).toEqual(['0'])
    expect(network.marketing).toEqual([])
    const rows = await t.app.store.query<{ attempt_at: Date | null }>(
      "SELECT attempt_at FROM message_recipients WHERE message_id = $1 AND recipient_id = '1'",
      [id],
    )
    expect(rows[0]?.attempt_at).toBeNull()
  })

  it("sends a utility job's template with each recipient's first name (the fallback word without one) and the broadcast metadata", async () => {
    const { id } = await job(['standard', 'standard'], {
      message: 'Hi {first name}, a reminder: the cake class takes place on Saturday.',
      message_type_id: 3,
      content_kind: 'utility',
      kind: 'utility',
      name_fallback: 'friend',
      utility: {
        name: 'event_reminder',
        language: 'en_US',
        body: 'Hi {{1}}, a reminder: {{2}} takes place on {{3}}.',
        params: ['{first name}', 'the cake class', 'Saturday'],
      },
    })
    await t.app.store.query(
      `UPDATE message_recipients SET name = '' WHERE message_id = $1 AND recipient_id = '1'`,
      [id],
    )
    const network = new FakeNetwork()
    expect(await runSlice(deps(network, new Map()), id)).toEqual({ kind: 'done', why: 'finished' })
    expect(network.sent).toEqual([
      {
        recipientId: '0',
        messagingType: 'UTILITY',
        metadata: BROADCAST_METADATA,
        utility: { name: 'event_reminder', language: 'en_US', params: ['R', 'the cake class', 'Saturday'] },
      },
      {
        recipientId: '1',
        messagingType: 'UTILITY',
        metadata: BROADCAST_METADATA,
        utility: {
          name: 'event_reminder',
          language: 'en_US',
          params: ['friend', 'the cake class', 'Saturday'],
        },
      },
    ])
  })

  it('sends an opt-in request as the notification_messages template and records it for the weekly limit', async () => {
    const { id, pageId } = await job(['standard', 'standard'], {
      content_kind: 'optin_request',
      optin_title: 'Weekly offers',
    })
    const network = new FakeNetwork()
    expect(await runSlice(deps(network, new Map()), id)).toEqual({ kind: 'done', why: 'finished' })
    expect(network.sent).toEqual([
      {
        recipientId: '0',
        messagingType: 'RESPONSE',
        metadata: BROADCAST_METADATA,
        optIn: { title: 'Weekly offers', payload: `pagecast_optin:${id}` },
      },
      {
        recipientId: '1',
        messagingType: 'RESPONSE',
        metadata: BROADCAST_METADATA,
        optIn: { title: 'Weekly offers', payload: `pagecast_optin:${id}` },
      },
    ])
    const asked = await t.app.store.query<{ psid: string; title: string }>(
      'SELECT psid, title FROM optin_requests WHERE page_id = $1 ORDER BY psid',
      [pageId],
    )
    expect(asked).toEqual([
      { psid: '0', title: 'Weekly offers' },
      { psid: '1', title: 'Weekly offers' },
    ])
    // Each message by the id the network answered, so the chats show it as the request.
    expect(await requestMessages(pageId)).toEqual([
      { psid: '0', message_id: 'm1', title: 'Weekly offers' },
      { psid: '1', message_id: 'm2', title: 'Weekly offers' },
    ])
  })

  it('records an uncertain opt-in request found in the conversation by the id of the message found', async () => {
    const { id, pageId } = await job(['standard', 'standard'], {
      content_kind: 'optin_request',
      optin_title: 'Weekly offers',
    })
    const network = await sentUnrecorded(id, pageId, { id: 'm_seen', text: 'Weekly offers' })
    expect(await runSlice(deps(network, new Map()), id)).toEqual({ kind: 'done', why: 'finished' })
    expect(network.sent.map((s) => s.recipientId)).toEqual(['1'])
    expect(await requestMessages(pageId)).toEqual([
      { psid: '0', message_id: 'm_seen', title: 'Weekly offers' },
      { psid: '1', message_id: 'm1', title: 'Weekly offers' },
    ])
  })

  it("records the opt-in requests the device sent before handing the job over, by the device's message ids", async () => {
    const { id, pageId } = await job(
      ['standard', 'standard'],
      { content_kind: 'optin_request', optin_title: 'Weekly offers' },
      {
        cursor: 1,
        results: [
          { _method: 'PUT', status: 'OK', recipient_id: '0', sent_as_branded: false, message_id: 'm_dev' },
        ],
      },
    )
    const network = new FakeNetwork()
    expect(await runSlice(deps(network, new Map()), id)).toEqual({ kind: 'done', why: 'finished' })
    expect(network.sent.map((s) => s.recipientId)).toEqual(['1'])
    expect(await requestMessages(pageId)).toEqual([
      { psid: '0', message_id: 'm_dev', title: 'Weekly offers' },
      { psid: '1', message_id: 'm1', title: 'Weekly offers' },
    ])
  })

  const requestMessages = (pageId: string) =>
    t.app.store.query<{ psid: string; message_id: string; title: string }>(
      'SELECT psid, message_id, title FROM optin_request_messages WHERE page_id = $1 ORDER BY psid',
      [pageId],
    )
})

/**
 * `messaging_optins` webhooks of marketing messages move the page's subscriber list: a first opt-in and a
 * resume make the person active with the token, an opt-out stops them at once, a late older event changes
 * nothing, and the page's owners hear the new counts.
 */
import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { tokenBox } from '../bulk/token-box.ts'
import { activeSubscriberPsids, subscriberCounts } from '../repo/marketing.ts'
import { type TestApp, login, onEveryStore, registerPage, startTestApp } from '../testing/harness.ts'

const SECRET = 'optin-test-secret'
const KEY = Buffer.alloc(32, 7)
const T0 = Date.parse('2026-11-01T00:00:00Z')

onEveryStore('marketing opt-in webhooks', (kind) => {
  let t: TestApp
  let n = 0
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { FB_APP_SECRET: SECRET, TOKEN_ENCRYPTION_KEY: KEY.toString('base64') })
  })
  afterAll(() => t.close())

  async function freshPage(): Promise<{ pageId: string; userId: string }> {
    const fb = `${kind === 'pglite' ? 81 : 82}0${++n}`
    const who = await login(t.app, fb)
    const pageId = `7${fb}`
    await registerPage(t.app, who, pageId)
    return { pageId, userId: who.user.id }
  }

  const optin = (pageId: string, psid: string, at: number, fields: Record<string, unknown> = {}) => ({
    sender: { id: psid },
    recipient: { id: pageId },
    timestamp: String(at),
    optin: {
      type: 'notification_messages',
      payload: 'offers',
      notification_messages_token: `tok-${psid}-${at}`,
      notification_messages_frequency: 'WEEKLY',
      notification_messages_timezone: 'America/Mexico_City',
      token_expiry_timestamp: String(at + 180 * 86_400_000),
      user_token_status: 'NOT_REFRESHED',
      title: 'Offers',
      ...fields,
    },
  })

  async function post(pageId: string, ...messaging: unknown[]) {
    const raw = JSON.stringify({ object: 'page', entry: [{ id: pageId, time: T0, messaging }] })
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/messenger',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`,
      },
    })
    expect(res.statusCode).toBe(200)
    await t.app.webhooks.drain()
  }

  const now = new Date(T0 + 86_400_000)
  const events = (userId: string) =>
    t.app.store
      .query<{ data: unknown }>(
        `SELECT data FROM owner_events WHERE user_id = $1 AND type = 'marketing_subscribers' ORDER BY id`,
        [userId],
      )
      .then((rows) => rows.map((r) => r.data))

  it('makes a first opt-in an active subscriber with its sealed token and tells the owners', async () => {
    const { pageId, userId } = await freshPage()
    await post(pageId, optin(pageId, '501', T0))
    expect(await activeSubscriberPsids(t.app.store, pageId, now)).toEqual(['501'])
    const [row] = await t.app.store.query<{ token: Uint8Array; source: string; timezone: string }>(
      'SELECT token, source, timezone FROM marketing_subscribers WHERE page_id = $1',
      [pageId],
    )
    expect(tokenBox(KEY).open(row!.token)).toBe(`tok-501-${T0}`)
    expect(row).toMatchObject({ source: 'webhook', timezone: 'America/Mexico_City' })
    expect(await events(userId)).toEqual([{ pageId, active: 1, stopped: 0 }])
  })

  it('stops at once on STOP_NOTIFICATIONS and ignores an older event delivered after it', async () => {
    const { pageId, userId } = await freshPage()
    await post(pageId, optin(pageId, '502', T0))
    await post(
      pageId,
      optin(pageId, '502', T0 + 60_000, { notification_messages_status: 'STOP_NOTIFICATIONS' }),
    )
    expect(await subscriberCounts(t.app.store, pageId, now)).toEqual({ active: 0, stopped: 1 })
    // A resume stamped before the stop arrives late; the first opt-in is delivered again.
    await post(
      pageId,
      optin(pageId, '502', T0 + 30_000, { notification_messages_status: 'RESUME_NOTIFICATIONS' }),
    )
    await post(pageId, { ...optin(pageId, '502', T0), extra: 1 })
    expect(await subscriberCounts(t.app.store, pageId, now)).toEqual({ active: 0, stopped: 1 })
    expect(await events(userId)).toEqual([
      { pageId, active: 1, stopped: 0 },
      { pageId, active: 0, stopped: 1 },
    ])
    // A later resume brings them back with its new token; the spaced form of the values is read too.
    await post(
      pageId,
      optin(pageId, '502', T0 + 120_000, { notification_messages_status: 'RESUME_NOTIFICATIONS' }),
    )
    expect(await activeSubscriberPsids(t.app.store, pageId, now)).toEqual(['502'])
    await post(
      pageId,
      optin(pageId, '502', T0 + 180_000, { notification_messages_status: 'STOP NOTIFICATIONS' }),
    )
    expect(await subscriberCounts(t.app.store, pageId, now)).toEqual({ active: 0, stopped: 1 })
  })

  it('applies the events of one body in their time order whatever their order in it', async () => {
    const { pageId } = await freshPage()
    await post(
      pageId,
      optin(pageId, '503', T0 + 60_000, { notification_messages_status: 'STOP_NOTIFICATIONS' }),
      optin(pageId, '503', T0),
    )
    expect(await subscriberCounts(t.app.store, pageId, now)).toEqual({ active: 0, stopped: 1 })
  })

  it('does not make a person with an already expired token active', async () => {
    const { pageId } = await freshPage()
    await post(pageId, optin(pageId, '504', T0, { token_expiry_timestamp: String(T0 + 1000) }))
    expect(await activeSubscriberPsids(t.app.store, pageId, now)).toEqual([])
    const rows = await t.app.store.query(
      'SELECT psid, status FROM marketing_subscribers WHERE page_id = $1',
      [pageId],
    )
    expect(rows).toEqual([{ psid: '504', status: 'expired' }])
  })

  it('leaves other opt-ins (Send to Messenger, other kinds) off the subscriber list', async () => {
    const { pageId } = await freshPage()
    await post(pageId, {
      sender: { id: '505' },
      recipient: { id: pageId },
      timestamp: T0,
      optin: { ref: 'PASS_THROUGH_PARAM' },
    })
    await post(pageId, optin(pageId, '507', T0, { type: 'one_time_notif_req' }))
    await post(pageId, optin(pageId, '506', T0))
    expect(await activeSubscriberPsids(t.app.store, pageId, now)).toEqual(['506'])
  })
})

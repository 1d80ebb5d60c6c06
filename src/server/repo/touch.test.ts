import { afterAll, beforeAll, expect, it } from 'vitest'
import { UNLIMITED_FAIR_USE_LIMIT } from '../../core/constants/limits.ts'
import {
  type TestApp,
  login,
  onEveryStore,
  registerPage,
  setAllowance,
  startTestApp,
} from '../testing/harness.ts'
import { advanceWatermark } from './page-receipts.ts'
import { BRANDED_EXHAUSTED, FAIR_USE_BLOCKED, LeaseMoved, NO_MESSAGES, touch } from './touch.ts'

const message = {
  page_id: '777',
  message_type_id: 3,
  message: 'Hello',
  label: '["all_labels"]',
  total_messages: 5000,
  branded_messages_amount: 0,
}

onEveryStore('the allowance', (kind) => {
  let t: TestApp
  let n = 0
  beforeAll(async () => {
    t = await startTestApp(kind)
  })
  afterAll(() => t.close())

  /** A fresh user (its own facebook id) with one stored message. */
  async function fresh(
    allowance: Parameters<typeof setAllowance>[2],
    declared: Partial<typeof message> = {},
  ) {
    const fb = `${kind === 'pglite' ? 7 : 8}00${++n}`
    const who = await login(t.app, fb)
    const { auth } = who
    await registerPage(t.app, who, fb)
    await setAllowance(t.app, fb, allowance)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/messages',
      headers: auth,
      payload: { ...message, page_id: fb, ...declared },
    })
    const id = (res.json() as { id: string }).id
    const touchAs = (recipient: string, extra: Record<string, unknown> = {}) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v2/messages/${id}/touch`,
        headers: auth,
        payload: { _method: 'PUT', status: 'OK', recipient_id: recipient, ...extra },
      })
    const available = async () =>
      (await t.app.inject({ url: '/api/v2/user/available-messages', headers: auth })).json() as {
        available_messages: number
        subscription: { subscriptions_messages: number; addons_messages: number; unlimited_blocked: boolean }
      }
    const recorded = async () =>
      (
        (
          await t.app.inject({ url: `/api/v2/messages/${id}/recipients?limit=5000`, headers: auth })
        ).json() as { data: { recipient_id: string; sent_as_branded: boolean; status: string }[] }
      ).data
    return { fb, id, auth, touchAs, available, recorded }
  }

  it('spends exactly 100 of 300 concurrent touches for a user with 100 messages, never going below zero', async () => {
    const u = await fresh({ subscriptions_messages: 60, addons_messages: 40 })
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => u.touchAs(`r${i}`)))
    const codes = results.map((r) => r.statusCode)
    expect(codes.filter((c) => c === 200)).toHaveLength(100)
    expect(codes.filter((c) => c === 406)).toHaveLength(200)
    for (const r of results)
      if (r.statusCode === 406) expect(r.json()).toEqual({ message: NO_MESSAGES, code: 'no_messages' })
    const after = await u.available()
    expect(after.available_messages).toBe(0)
    expect(after.subscription).toMatchObject({ subscriptions_messages: 0, addons_messages: 0 })
    const list = await t.app.inject({
      url: `/api/v2/messages/${u.id}/recipients?limit=5000`,
      headers: u.auth,
    })
    const recorded = (list.json() as { data: { status: string | null }[] }).data
    expect(recorded.filter((r) => r.status === 'OK')).toHaveLength(100)
    expect(recorded).toHaveLength(100)
  })

  it('spends once when the same touch is retried five times, even all at once', async () => {
    const u = await fresh({ subscriptions_messages: 10 })
    const results = await Promise.all(Array.from({ length: 5 }, () => u.touchAs('same')))
    for (const r of results) expect(r.statusCode).toBe(200)
    for (let i = 0; i < 5; i++)
      expect((await u.touchAs('same')).json()).toMatchObject({ available_messages: 9 })
    expect((await u.available()).available_messages).toBe(9)
  })

  it('spends subscription messages first and add-ons after them', async () => {
    const u = await fresh({ subscriptions_messages: 1, addons_messages: 2 })
    await u.touchAs('a')
    expect((await u.available()).subscription).toMatchObject({
      subscriptions_messages: 0,
      addons_messages: 2,
    })
    await u.touchAs('b')
    expect((await u.available()).subscription).toMatchObject({
      subscriptions_messages: 0,
      addons_messages: 1,
    })
  })

  it("records nothing under a lease that moved on, and leaves the new holder's in-flight mark and wait alone", async () => {
    const u = await fresh({ subscriptions_messages: 3 })
    const [user] = await t.app.store.query<{ id: string }>('SELECT id FROM users WHERE facebook_id = $1', [
      u.fb,
    ])
    // The job is someone else's now (lease 7), in flight until an hour from now, next send in a minute.
    await t.app.store.query(
      `UPDATE messages SET lease = 7, busy_until = now() + interval '1 hour',
         next_send_at = now() + interval '1 minute', server_state = 'rate_limited' WHERE id = $1`,
      [u.id],
    )
    const before = await t.app.store.query(
      'SELECT busy_until, next_send_at, server_state, ok_count FROM messages WHERE id = $1',
      [u.id],
    )
    await expect(
      touch(
        t.app.store,
        user!.id,
        u.id,
        { recipient_id: 'late', status: 'OK', sent_as_branded: false },
        {
          lease: 6,
          nextSendAt: Date.now() + 5_000,
          now: Date.now(),
        },
      ),
    ).rejects.toBeInstanceOf(LeaseMoved)
    expect(
      await t.app.store.query(
        'SELECT busy_until, next_send_at, server_state, ok_count FROM messages WHERE id = $1',
        [u.id],
      ),
    ).toEqual(before)
    expect(await u.recorded()).toEqual([])
    expect((await u.available()).available_messages).toBe(3)
  })

  it('counts a delivery and a read whose receipts came before the send was recorded, once', async () => {
    const u = await fresh({ subscriptions_messages: 10 })
    const now = new Date().toISOString()
    // The network delivered to d and delivered to and was read by r before the app recorded the sends.
    await advanceWatermark(t.app.store, u.fb, 'd', 'delivered', now)
    await advanceWatermark(t.app.store, u.fb, 'r', 'read', now)
    // An old receipt covers no send recorded now.
    await advanceWatermark(
      t.app.store,
      u.fb,
      'old',
      'delivered',
      new Date(Date.now() - 3_600_000).toISOString(),
    )
    const [user] = await t.app.store.query<{ id: string }>('SELECT id FROM users WHERE facebook_id = $1', [
      u.fb,
    ])
    const events = () =>
      t.app.store.query<{ data: { delivered: number; read: number } }>(
        `SELECT data FROM owner_events WHERE user_id = $1 AND type = 'bulk_receipts' ORDER BY id`,
        [user!.id],
      )
    for (const who of ['d', 'r', 'old', 'none']) expect((await u.touchAs(who)).statusCode).toBe(200)
    // A retried touch counts nothing again.
    expect((await u.touchAs('d')).statusCode).toBe(200)
    const [row] = await t.app.store.query<{ delivered_count: number; read_count: number }>(
      'SELECT delivered_count, read_count FROM messages WHERE id = $1',
      [u.id],
    )
    expect(row).toEqual({ delivered_count: 2, read_count: 1 })
    const marks = await t.app.store.query<{ recipient_id: string; delivered: boolean; read: boolean }>(
      `SELECT recipient_id, delivered_at IS NOT NULL AS delivered, read_at IS NOT NULL AS read
       FROM message_recipients WHERE message_id = $1 ORDER BY recipient_id`,
      [u.id],
    )
    expect(marks).toEqual([
      { recipient_id: 'd', delivered: true, read: false },
      { recipient_id: 'none', delivered: false, read: false },
      { recipient_id: 'old', delivered: false, read: false },
      { recipient_id: 'r', delivered: true, read: true },
    ])
    // The owner's apps hear of the counts as a receipt would tell them.
    expect((await events()).map((e) => e.data)).toEqual([
      expect.objectContaining({ messageId: u.id, delivered: 1, read: 0 }),
      expect.objectContaining({ messageId: u.id, delivered: 2, read: 1 }),
    ])
  })

  it('records a rejected send without spending and counts it on the message', async () => {
    const u = await fresh({ subscriptions_messages: 3 })
    const res = await u.touchAs('x', {
      status: 'NG',
      error_data: { error_message: '{"code":551}', recipent_id: 'x', recipent_name: 'X' },
    })
    expect(res.json()).toMatchObject({ available_messages: 3 })
    const list = (await t.app.inject({ url: '/api/v2/messages?state=open', headers: u.auth })).json() as {
      data: { id: string; ng_count: number; ok_count: number }[]
    }
    expect(list.data.find((m) => m.id === u.id)).toMatchObject({ ng_count: 1, ok_count: 0 })
  })

  it('refuses an OK send with nothing left, records nothing, and accepts the same recipient after a purchase', async () => {
    const u = await fresh({ subscriptions_messages: 0, addons_messages: 0 })
    const refused = await u.touchAs('late')
    expect(refused.statusCode).toBe(406)
    const list = (
      await t.app.inject({ url: `/api/v2/messages/${u.id}/recipients`, headers: u.auth })
    ).json() as { data: unknown[] }
    expect(list.data).toHaveLength(0)
    await setAllowance(t.app, u.fb, { addons_messages: 1 })
    expect((await u.touchAs('late')).json()).toMatchObject({ available_messages: 0 })
  })

  it('counts a branded send without spending once branded messages are authorised', async () => {
    const u = await fresh(
      { subscriptions_messages: 1, use_branded_messages: true },
      { branded_messages_amount: 1, total_messages: 2 },
    )
    expect((await u.touchAs('b1', { sent_as_branded: true })).statusCode).toBe(200)
    expect(await u.recorded()).toEqual([expect.objectContaining({ sent_as_branded: true, status: 'OK' })])
    expect((await u.available()).available_messages).toBe(1)
  })

  it('refuses a branded touch on a message that declared no branded sends, recording and spending nothing', async () => {
    const u = await fresh({ subscriptions_messages: 1, use_branded_messages: true })
    const refused = await u.touchAs('c1', { sent_as_branded: true })
    expect(refused.statusCode).toBe(406)
    expect(refused.json()).toEqual({ message: BRANDED_EXHAUSTED, code: 'branded_exhausted' })
    expect(await u.recorded()).toEqual([])
    expect((await u.available()).available_messages).toBe(1)
    // The same recipient sent without the footer is paid from the allowance.
    expect((await u.touchAs('c1')).json()).toMatchObject({ available_messages: 0 })
  })

  it('counts at most the declared branded sends of 20 concurrent branded touches and refuses the rest', async () => {
    const u = await fresh(
      { subscriptions_messages: 2, use_branded_messages: true },
      { branded_messages_amount: 3, total_messages: 20 },
    )
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => u.touchAs(`e${i}`, { sent_as_branded: true })),
    )
    const codes = results.map((r) => r.statusCode)
    expect(codes.filter((c) => c === 200)).toHaveLength(3)
    expect(codes.filter((c) => c === 406)).toHaveLength(17)
    expect((await u.available()).available_messages).toBe(2)
    const rows = await u.recorded()
    expect(rows).toHaveLength(3)
    expect(rows.every((r) => r.sent_as_branded)).toBe(true)
  })

  it('takes branded sends past the declared amount free once nothing is left to spend, and refuses them again after a purchase', async () => {
    const u = await fresh({ subscriptions_messages: 2, use_branded_messages: true }, { total_messages: 3 })
    // Another send spent the rest of the allowance while this one ran: the footer carries it from then on.
    await setAllowance(t.app, u.fb, { subscriptions_messages: 0, addons_messages: 0 })
    expect((await u.touchAs('g1', { sent_as_branded: true })).statusCode).toBe(200)
    expect((await u.available()).available_messages).toBe(0)
    await setAllowance(t.app, u.fb, { addons_messages: 1 })
    expect((await u.touchAs('g2', { sent_as_branded: true })).statusCode).toBe(406)
    expect((await u.recorded()).map((r) => [r.recipient_id, r.sent_as_branded])).toEqual([['g1', true]])
    expect((await u.available()).available_messages).toBe(1)
  })

  it('counts a retried branded touch once, and refuses a branded touch past the declared amount', async () => {
    const u = await fresh(
      { subscriptions_messages: 5, use_branded_messages: true },
      { branded_messages_amount: 1, total_messages: 6 },
    )
    const retries = (recipient: string) =>
      Promise.all(Array.from({ length: 5 }, () => u.touchAs(recipient, { sent_as_branded: true })))
    for (const r of await retries('f1')) expect(r.statusCode).toBe(200)
    for (const r of await retries('f2')) expect(r.statusCode).toBe(406)
    expect((await u.available()).available_messages).toBe(5)
    expect((await u.recorded()).map((r) => [r.recipient_id, r.sent_as_branded])).toEqual([['f1', true]])
  })

  it('refuses touches beyond the declared total of distinct recipients, recording and spending nothing', async () => {
    const u = await fresh(
      { subscriptions_messages: 1, use_branded_messages: true },
      {
        total_messages: 2,
        branded_messages_amount: 1,
      },
    )
    const results = []
    for (let i = 0; i < 30; i++) results.push(await u.touchAs(`g${i}`, { sent_as_branded: i !== 1 }))
    expect(results.slice(0, 2).map((r) => r.statusCode)).toEqual([200, 200])
    for (const r of results.slice(2)) {
      expect(r.statusCode).toBe(409)
      expect(r.json().message).toBe('This message was declared for 2 recipients; it has them all.')
    }
    // A retry of a recipient it has is still answered as before.
    expect((await u.touchAs('g0', { sent_as_branded: true })).statusCode).toBe(200)
    expect((await u.recorded()).map((r) => [r.recipient_id, r.sent_as_branded])).toEqual([
      ['g0', true],
      ['g1', false],
    ])
    expect((await u.available()).available_messages).toBe(0)
    const list = (await t.app.inject({ url: '/api/v2/messages?state=open', headers: u.auth })).json() as {
      data: { id: string; ok_count: number; ng_count: number }[]
    }
    expect(list.data.find((m) => m.id === u.id)).toMatchObject({ ok_count: 2, ng_count: 0 })
  })

  it("refuses a touch for a recipient not in the message's list, a rejected one too, spending nothing", async () => {
    const u = await fresh({ subscriptions_messages: 10 }, { total_messages: 3 })
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v2/messages/${u.id}/recipients`,
      headers: u.auth,
      payload: {
        recipients: ['h1', 'h2'].map((id) => ({ recipient_id: id, name: id, conversation_id: `t_${id}` })),
      },
    })
    expect(put.statusCode).toBe(200)
    for (const extra of [{}, { status: 'NG', error_data: null }]) {
      const refused = await u.touchAs('stranger', extra)
      expect(refused.statusCode).toBe(409)
      expect(refused.json().message).toBe("This recipient is not one of this message's recipients.")
    }
    expect((await u.touchAs('h2')).statusCode).toBe(200)
    expect((await u.available()).available_messages).toBe(9)
    expect((await u.recorded()).map((r) => [r.recipient_id, r.status])).toEqual([
      ['h1', null],
      ['h2', 'OK'],
    ])
  })

  it('lets unlimited subscribers send without spending until the fair-use limit blocks them', async () => {
    const u = await fresh({
      is_unlimited: true,
      subscriptions_messages: 0,
      unlimited_sent: UNLIMITED_FAIR_USE_LIMIT - 2,
    })
    expect((await u.touchAs('u1')).statusCode).toBe(200)
    expect((await u.available()).subscription.unlimited_blocked).toBe(false)
    expect((await u.touchAs('u2')).statusCode).toBe(200)
    expect((await u.available()).subscription.unlimited_blocked).toBe(true)
    const blocked = await u.touchAs('u3')
    expect(blocked.statusCode).toBe(406)
    expect(blocked.json()).toEqual({ message: FAIR_USE_BLOCKED, code: 'fair_use_blocked' })
  })

  it('refuses touches on a message of another user with 404', async () => {
    const owner = await fresh({ subscriptions_messages: 5 })
    const other = await login(t.app, `${kind === 'pglite' ? 7 : 8}99${++n}`)
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v2/messages/${owner.id}/touch`,
      headers: other.auth,
      payload: { _method: 'PUT', status: 'OK', recipient_id: 'r' },
    })
    expect(res.statusCode).toBe(404)
    expect((await owner.available()).available_messages).toBe(5)
  })

  it("keeps a delivered opt-in request's message id for the chats, and no other message's", async () => {
    const u = await fresh({ subscriptions_messages: 5 }, {
      content_kind: 'optin_request',
      optin_title: 'Weekly offers',
    } as never)
    expect((await u.touchAs('1001', { message_id: 'm_1' })).statusCode).toBe(200)
    // A retry with the same id, a touch without one and a rejected send add nothing.
    expect((await u.touchAs('1001', { message_id: 'm_1' })).statusCode).toBe(200)
    expect((await u.touchAs('1002')).statusCode).toBe(200)
    expect((await u.touchAs('1003', { status: 'NG', message_id: 'm_3', error_data: null })).statusCode).toBe(
      200,
    )
    const read = (psid: string) =>
      t.app.inject({ url: `/api/v2/pages/${u.fb}/marketing/optin-requests?psid=${psid}`, headers: u.auth })
    expect((await read('1001')).json()).toMatchObject({
      data: [{ message_id: 'm_1', title: 'Weekly offers' }],
    })
    expect((await read('1002')).json()).toEqual({ data: [] })
    expect((await read('1003')).json()).toEqual({ data: [] })
    const bad = await u.touchAs('1004', { message_id: 'not an id' })
    expect(bad.statusCode).toBe(422)
    expect(bad.json().errors.message_id).toBeTruthy()

    const text = await fresh({ subscriptions_messages: 5 })
    expect((await text.touchAs('1001', { message_id: 'm_9' })).statusCode).toBe(200)
    const none = await t.app.inject({
      url: `/api/v2/pages/${text.fb}/marketing/optin-requests?psid=1001`,
      headers: text.auth,
    })
    expect(none.json()).toEqual({ data: [] })
  })
})

import { afterAll, beforeAll, expect, it } from 'vitest'
import { UNLIMITED_FAIR_USE_LIMIT } from '../../shared/constants/limits.ts'
import { type TestApp, login, onEveryStore, setAllowance, startTestApp } from '../testing/harness.ts'
import { BRANDED_NOT_AUTHORISED, FAIR_USE_BLOCKED, NO_MESSAGES } from './touch.ts'

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
  async function fresh(allowance: Parameters<typeof setAllowance>[2]) {
    const fb = `${kind === 'pglite' ? 7 : 8}00${++n}`
    const { auth } = await login(t.app, fb)
    await setAllowance(t.app, fb, allowance)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/messages',
      headers: auth,
      payload: message,
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
    return { fb, id, auth, touchAs, available }
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

  it('counts branded sends without spending, only once branded messages are authorised', async () => {
    const u = await fresh({ subscriptions_messages: 0 })
    const refused = await u.touchAs('b1', { sent_as_branded: true })
    expect(refused.statusCode).toBe(406)
    expect(refused.json()).toEqual({ message: BRANDED_NOT_AUTHORISED, code: 'branded_not_authorised' })
    await setAllowance(t.app, u.fb, { use_branded_messages: true })
    expect((await u.touchAs('b1', { sent_as_branded: true })).statusCode).toBe(200)
    const rows = (
      await t.app.inject({ url: `/api/v2/messages/${u.id}/recipients`, headers: u.auth })
    ).json() as {
      data: { sent_as_branded: boolean; status: string }[]
    }
    expect(rows.data).toEqual([expect.objectContaining({ sent_as_branded: true, status: 'OK' })])
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
})

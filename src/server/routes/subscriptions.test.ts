import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { plans } from '../../core/constants/plans.ts'
import { sign } from '../payments/signature.ts'
import {
  type LoggedIn,
  type TestApp,
  login,
  onEveryStore,
  setAllowance,
  startTestApp,
} from '../testing/harness.ts'
import { ADDON_NEEDS_SUBSCRIPTION, NOTHING_TO_CANCEL } from './subscriptions.ts'

const SECRET = 'whsec_test_secret'
const urls = {
  success_url: 'http://pagecast.test/?success=true',
  cancel_url: 'http://pagecast.test/?success=false',
}

onEveryStore('checkout and payment events', (kind) => {
  let t: TestApp
  let n = 0
  beforeAll(async () => {
    t = await startTestApp(kind, { sandboxWebhookSecret: SECRET })
  })
  afterAll(() => t.close())

  const fresh = () => login(t.app, `5${kind === 'pglite' ? 1 : 2}0${++n}`)
  const checkout = (who: LoggedIn, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v2/user/subscriptions/checkout',
      headers: who.auth,
      payload: { ...urls, ...payload },
    })
  const webhook = (event: unknown, secret = SECRET, at = Math.floor(Date.now() / 1000)) => {
    const raw = JSON.stringify(event)
    return t.app.inject({
      method: 'POST',
      url: '/api/v2/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': sign(secret, raw, at) },
      payload: raw,
    })
  }
  const pay = async (who: LoggedIn, payload: Record<string, unknown>, eventId = `evt_${Math.random()}`) => {
    const url = new URL((await checkout(who, payload)).json().data.url as string)
    const session = url.searchParams.get('session')!
    return {
      url,
      session,
      res: await webhook({
        id: eventId,
        type: 'checkout.session.completed',
        data: { object: { id: session } },
      }),
    }
  }
  const state = async (who: LoggedIn) =>
    (await t.app.inject({ url: '/api/v2/user', headers: who.auth })).json().data.subscription

  it('sends the user to the sandbox checkout with product, amount and return URLs', async () => {
    const { url } = await pay(await fresh(), { price_id: 'plan_pro_monthly' })
    expect(url.pathname).toBe('/sandbox/checkout')
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      product: 'Pagecast pro',
      amount: '99.99',
      ...urls,
    })
  })

  /** An affiliate's code, of the network account `facebookId` when given. */
  const affiliate = async (facebookId: string | null = null) => {
    const code = `aff-${kind}-${++n}`
    await t.app.store.query('INSERT INTO affiliates (code, facebook_id) VALUES ($1, $2)', [code, facebookId])
    return code
  }
  const discounted = (res: { json(): { data: { url: string } } }) =>
    new URL(res.json().data.url).searchParams.get('discount')

  it("shows the referral discount of 15% in the amount for an affiliate's code", async () => {
    const who = await fresh()
    const code = await affiliate()
    const res = await checkout(who, { price_id: 'plan_starter_monthly', referral: code })
    const url = new URL(res.json().data.url)
    expect(url.searchParams.get('amount')).toBe((Math.round(14.99 * 85) / 100).toFixed(2))
    expect(url.searchParams.get('discount')).toBe('15% for 3 months')
    expect((await state(who)).referral).toBe(code)
  })

  it("refuses a referral or coupon that is no affiliate's code, or the buyer's own, with 422 and no checkout", async () => {
    const who = await fresh()
    const own = await affiliate(who.user.facebook_id)
    for (const [field, code] of [
      ['referral', 'anything-i-like'],
      ['coupon', 'anything-i-like'],
      ['referral', own],
    ] as const) {
      const res = await checkout(who, { price_id: 'plan_starter_monthly', [field]: code })
      expect(res.statusCode).toBe(422)
      expect(res.json().errors).toEqual({ [field]: ['This referral code is not valid.'] })
    }
    const sessions = await t.app.store.query('SELECT 1 FROM checkout_sessions WHERE user_id = $1', [
      who.user.id,
    ])
    expect(sessions).toHaveLength(0)
    expect((await state(who)).referral).toBeNull()
    // Without a code the same plan is sold at its price.
    const plain = await checkout(who, { price_id: 'plan_starter_monthly' })
    expect(plain.statusCode).toBe(200)
    expect(discounted(plain)).toBeNull()
  })

  it('gives the referral discount once per customer: a purchase after a discounted one is at full price', async () => {
    const who = await fresh()
    const code = await affiliate()
    // An unpaid discounted checkout does not use it up.
    expect(discounted(await checkout(who, { price_id: 'plan_starter_monthly', referral: code }))).toBe(
      '15% for 3 months',
    )
    const { url } = await pay(who, { price_id: 'plan_pro_monthly', referral: code })
    expect(url.searchParams.get('discount')).toBe('15% for 3 months')
    const again = await checkout(who, { price_id: 'plan_pro_monthly', referral: code })
    expect(again.statusCode).toBe(200)
    expect(discounted(again)).toBeNull()
    expect(new URL(again.json().data.url).searchParams.get('amount')).toBe('99.99')
    expect(
      discounted(await checkout(who, { price_id: 'plan_pro_monthly', referral: await affiliate() })),
    ).toBeNull()
  })

  it("keeps a login's referral only when it is an affiliate's code, and discounts a later checkout with it", async () => {
    const code = await affiliate()
    const referred = await login(t.app, `5${kind === 'pglite' ? 1 : 2}0${++n}`, { referral: code })
    expect((await state(referred)).referral).toBe(code)
    expect(discounted(await checkout(referred, { price_id: 'plan_starter_monthly' }))).toBe(
      '15% for 3 months',
    )
    const junk = await login(t.app, `5${kind === 'pglite' ? 1 : 2}0${++n}`, {
      referral: 'anything-i-like',
      coupon: 'anything-i-like',
    })
    expect(await state(junk)).toMatchObject({ referral: null, coupon: null })
    expect(discounted(await checkout(junk, { price_id: 'plan_starter_monthly' }))).toBeNull()
  })

  it('activates the plan when the signed event arrives, once however often it is delivered', async () => {
    const who = await fresh()
    const { res, session } = await pay(who, { price_id: 'plan_marketer_annual' }, 'evt_plan_1')
    expect(res.json()).toEqual({ received: true, outcome: 'processed' })
    const plan = plans.find((p) => p.title === 'marketer')!
    expect(await state(who)).toMatchObject({
      access: true,
      access_type: 'paid',
      subscriptions_messages: plan.messages,
    })
    const mine = (
      await t.app.inject({ url: '/api/v2/user/subscriptions/my-subscription', headers: who.auth })
    ).json()
    expect(mine).toMatchObject({ product: 'marketer', amount: 499.99, cancel_at_period_end: false })
    expect(new Date(mine.current_period_end).getTime() - Date.now()).toBeGreaterThan(360 * 86_400_000)

    await setAllowance(t.app, who.user.facebook_id, { subscriptions_messages: 3 })
    const again = await webhook({
      id: 'evt_plan_1',
      type: 'checkout.session.completed',
      data: { object: { id: session } },
    })
    expect(again.json().outcome).toBe('duplicate')
    const other = await webhook({
      id: 'evt_plan_2',
      type: 'checkout.session.completed',
      data: { object: { id: session } },
    })
    expect(other.json().outcome).toBe('ignored')
    expect((await state(who)).subscriptions_messages).toBe(3)
  })

  it('sells add-ons only to paying users, adds their messages and lifts a fair-use block', async () => {
    const who = await fresh()
    const refused = await checkout(who, { price_id: 'addon_1000', is_addon: true })
    expect(refused.statusCode).toBe(406)
    expect(refused.json()).toEqual({ message: ADDON_NEEDS_SUBSCRIPTION, code: 'addon_needs_subscription' })
    await pay(who, { price_id: 'plan_starter_monthly' })
    await setAllowance(t.app, who.user.facebook_id, { is_unlimited: true, unlimited_blocked: true })
    await pay(who, { price_id: 'addon_2000', is_addon: true })
    expect(await state(who)).toMatchObject({
      addons_messages: 2000,
      unlimited_blocked: false,
      available_messages: 4000,
    })
  })

  it("refuses return addresses outside the product's own origin with 422, creating no checkout", async () => {
    const who = await fresh()
    for (const [field, url] of [
      ['success_url', 'https://evil.example/?success=true'],
      ['cancel_url', 'https://evil.example/?success=false'],
      ['success_url', 'http://pagecast.test.evil.example/'],
      ['cancel_url', 'https://pagecast.test/?success=false'],
      ['success_url', 'http://pagecast.test:8081/'],
    ] as const) {
      const res = await checkout(who, { price_id: 'plan_pro_monthly', [field]: url })
      expect(res.statusCode).toBe(422)
      expect(res.json().errors).toEqual({ [field]: ['The return address must be on this site.'] })
    }
    const sessions = await t.app.store.query(
      'SELECT 1 FROM checkout_sessions WHERE user_id = (SELECT id FROM users WHERE facebook_id = $1)',
      [who.user.facebook_id],
    )
    expect(sessions).toHaveLength(0)
  })

  it('refuses unknown prices and mismatched add-on flags with 422', async () => {
    const who = await fresh()
    expect((await checkout(who, { price_id: 'plan_free' })).json().errors.price_id).toBeTruthy()
    expect((await checkout(who, { price_id: 'plan_pro_monthly', is_addon: true })).statusCode).toBe(422)
    expect(
      (await checkout(who, { price_id: 'plan_pro_monthly', success_url: 'javascript:alert(1)' })).statusCode,
    ).toBe(422)
    expect((await checkout(who, { price_id: 'plan_pro_monthly', amount: 1 })).statusCode).toBe(422)
  })

  it('refuses unsigned, wrongly signed, stale and malformed events with 4xx and changes nothing', async () => {
    const who = await fresh()
    const url = new URL((await checkout(who, { price_id: 'plan_pro_monthly' })).json().data.url)
    const event = {
      id: 'evt_bad',
      type: 'checkout.session.completed',
      data: { object: { id: url.searchParams.get('session') } },
    }
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/v2/payments/webhook', payload: event })
    expect(unsigned.statusCode).toBe(400)
    expect((await webhook(event, 'whsec_wrong')).statusCode).toBe(400)
    expect((await webhook(event, SECRET, Math.floor(Date.now() / 1000) - 3600)).statusCode).toBe(400)
    expect((await webhook({ id: 'evt_x', type: 'checkout.session.completed' })).statusCode).toBe(422)
    const raw = '{"id": '
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/v2/payments/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': sign(SECRET, raw, Math.floor(Date.now() / 1000)),
      },
      payload: raw,
    })
    expect(broken.statusCode).toBe(422)
    expect((await state(who)).access_type).toBe('trial')
  })

  it('cancels a paid subscription at period end, requiring a reason', async () => {
    const who = await fresh()
    const cancel = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/user/subscriptions/cancel-subscription',
        headers: who.auth,
        payload: payload as string,
      })
    expect((await cancel({ cancellation_reason: 'too expensive' })).json()).toEqual({
      message: NOTHING_TO_CANCEL,
      code: 'nothing_to_cancel',
    })
    await pay(who, { price_id: 'plan_starter_monthly' })
    const empty = await cancel({ cancellation_reason: '  ' })
    expect(empty.statusCode).toBe(422)
    expect(empty.json().errors.cancellation_reason).toEqual(['Required'])
    expect((await cancel({})).json().errors.cancellation_reason).toEqual(['Required'])
    expect((await cancel({ cancellation_reason: 'too expensive' })).statusCode).toBe(200)
    const mine = (
      await t.app.inject({ url: '/api/v2/user/subscriptions/my-subscription', headers: who.auth })
    ).json()
    expect(mine.cancel_at_period_end).toBe(true)
    expect((await state(who)).access).toBe(true)
  })
})

describe('the sandbox webhook secret', () => {
  it('defaults to SANDBOX_WEBHOOK_SECRET', async () => {
    const t = await startTestApp('pglite', {}, { SANDBOX_WEBHOOK_SECRET: 'whsec_from_env' })
    try {
      const raw = JSON.stringify({ id: 'evt_1', type: 'ping', data: { object: {} } })
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/payments/webhook',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': sign('whsec_from_env', raw, Math.floor(Date.now() / 1000)),
        },
        payload: raw,
      })
      expect(res.json()).toEqual({ received: true, outcome: 'ignored' })
    } finally {
      await t.close()
    }
  })
})

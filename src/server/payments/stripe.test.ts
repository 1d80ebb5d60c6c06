import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestApp, login, startTestApp } from '../testing/harness.ts'
import { handleEvent, paymentEvent } from './fulfil.ts'
import { sign, verifySignature } from './signature.ts'
import { stripeProvider } from './stripe-provider.ts'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')

describe('webhook signature verification', () => {
  const secret = 'whsec_abc'
  const body = fixture('checkout-session-completed')
  const now = 1_763_850_000

  it('accepts a signature made with the secret over the timestamp and raw body', () => {
    expect(verifySignature(secret, body, sign(secret, body, now), now)).toEqual({ ok: true })
  })

  it('accepts any matching v1 among several (secret rotation)', () => {
    const good = sign(secret, body, now).split(',')[1]
    expect(verifySignature(secret, body, `t=${now},v1=${'0'.repeat(64)},${good}`, now).ok).toBe(true)
  })

  it('refuses a changed body, another secret, a stale timestamp and malformed headers', () => {
    const header = sign(secret, body, now)
    expect(verifySignature(secret, `${body} `, header, now).ok).toBe(false)
    expect(verifySignature('whsec_other', body, header, now).ok).toBe(false)
    expect(verifySignature(secret, body, header, now + 301)).toEqual({
      ok: false,
      reason: 'The event timestamp is outside the tolerance.',
    })
    for (const bad of [undefined, '', 'v1=abc', `t=${now}`, 't=abc,v1=def', `t=${now},v1=short`]) {
      expect(verifySignature(secret, body, bad, now).ok).toBe(false)
    }
  })
})

describe('the Stripe provider', () => {
  it('creates a subscription checkout with the inline price, our reference and the referral coupon', async () => {
    const calls: { url: string; init: RequestInit }[] = []
    const provider = stripeProvider({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      referralCoupon: 'REF15',
      fetch: async (url, init) => {
        calls.push({ url: String(url), init: init! })
        return new Response(
          JSON.stringify({ id: 'cs_test_1', url: 'https://checkout.stripe.com/c/pay/cs_test_1' }),
          { status: 200 },
        )
      },
    })
    const result = await provider.createCheckout({
      sessionId: 'cs_ours',
      kind: 'plan',
      priceId: 'plan_starter_monthly',
      productName: 'Pagecast starter',
      amount: 14.99,
      interval: 'month',
      discountPercent: 15,
      discountMonths: 3,
      successUrl: 'https://app.example/?success=true',
      cancelUrl: 'https://app.example/?success=false',
    })
    expect(result).toEqual({
      url: 'https://checkout.stripe.com/c/pay/cs_test_1',
      providerSessionId: 'cs_test_1',
    })
    expect(calls[0]!.url).toBe('https://api.stripe.com/v1/checkout/sessions')
    expect(new Headers(calls[0]!.init.headers).get('authorization')).toBe('Bearer sk_test_1')
    const form = new URLSearchParams(String(calls[0]!.init.body))
    expect(Object.fromEntries(form)).toMatchObject({
      mode: 'subscription',
      client_reference_id: 'cs_ours',
      'line_items[0][price_data][unit_amount]': '1499',
      'line_items[0][price_data][recurring][interval]': 'month',
      'discounts[0][coupon]': 'REF15',
    })
  })

  it('rejects with the API message when Stripe refuses', async () => {
    const provider = stripeProvider({
      secretKey: 'sk',
      webhookSecret: 'wh',
      referralCoupon: 'c',
      fetch: async () =>
        new Response(JSON.stringify({ error: { message: 'No such coupon' } }), { status: 400 }),
    })
    await expect(provider.cancelAtPeriodEnd('sub_1')).rejects.toThrow('No such coupon')
  })
})

describe('Stripe events, from fixtures', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(
      'pglite',
      {},
      { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test', STRIPE_WEBHOOK_SECRET: 'whsec_stripe' },
    )
  })
  afterAll(() => t.close())

  it('activates the plan of our session from checkout.session.completed, renews it from invoice.paid, ends it on deletion', async () => {
    const who = await login(t.app, '6001')
    await t.app.store.query(
      `INSERT INTO checkout_sessions (id, user_id, provider, provider_session_id, price_id, kind, amount) VALUES ('cs_ourSessionId', $1, 'stripe', 'cs_test_a1B2c3D4', 'plan_starter_monthly', 'plan', 12.74)`,
      [who.user.id],
    )
    const completed = paymentEvent.parse(JSON.parse(fixture('checkout-session-completed')))
    expect(await handleEvent(t.app.store, completed)).toBe('processed')
    expect(await handleEvent(t.app.store, completed)).toBe('duplicate')
    const sub = async () =>
      (
        await t.app.store.query<Record<string, unknown>>('SELECT * FROM subscriptions WHERE user_id = $1', [
          who.user.id,
        ])
      )[0]!
    expect(await sub()).toMatchObject({
      access_type: 'paid',
      product: 'starter',
      provider_subscription_id: 'sub_1Qfixture',
      subscriptions_messages: 2000,
    })

    await t.app.store.query('UPDATE subscriptions SET subscriptions_messages = 5 WHERE user_id = $1', [
      who.user.id,
    ])
    expect(
      await handleEvent(t.app.store, paymentEvent.parse(JSON.parse(fixture('invoice-paid-renewal')))),
    ).toBe('processed')
    expect((await sub()).subscriptions_messages).toBe(2000)

    const deleted = {
      id: 'evt_del',
      type: 'customer.subscription.deleted',
      data: { object: { id: 'sub_1Qfixture' } },
    }
    expect(await handleEvent(t.app.store, deleted)).toBe('processed')
    expect((await sub()).access).toBe(false)
  })

  it('verifies the webhook with STRIPE_WEBHOOK_SECRET', async () => {
    const raw = JSON.stringify({ id: 'evt_ping', type: 'ping', data: { object: {} } })
    const post = (secret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/payments/webhook',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': sign(secret, raw, Math.floor(Date.now() / 1000)),
        },
        payload: raw,
      })
    expect((await post('whsec_sandbox')).statusCode).toBe(400)
    expect((await post('whsec_stripe')).statusCode).toBe(200)
  })
})

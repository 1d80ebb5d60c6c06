import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRIAL_MESSAGES } from '../../core/constants/limits.ts'
import { SUBSCRIPTION_STATES, type SubscriptionStateName } from '../../core/contracts/testing.ts'
import { ConfigError, loadConfig } from '../config.ts'
import { TEST_REFERRAL_CODE, TRIAL_LEFT } from '../repo/subscription-states.ts'
import type { FastifyInstance } from 'fastify'
import { type LoggedIn, type TestApp, login, onEveryStore, startTestApp } from '../testing/harness.ts'

const ON = { TEST_ROUTES: 'true' }

/** `POST /api/v2/testing/subscription` as `who` (nobody without). */
const putState = (app: FastifyInstance, who: Pick<LoggedIn, 'auth'> | undefined, payload: unknown) =>
  app.inject({
    method: 'POST',
    url: '/api/v2/testing/subscription',
    headers: who?.auth ?? {},
    payload: payload as Record<string, unknown>,
  })

describe('the test routes', () => {
  it('are not there unless TEST_ROUTES is on', async () => {
    const t = await startTestApp()
    try {
      const who = await login(t.app, '7001')
      expect((await putState(t.app, who, { state: 'paid' })).statusCode).toBe(404)
    } finally {
      await t.close()
    }
  })

  it('refuse to start in production, without the sandbox, or with another network', () => {
    const production = {
      NODE_ENV: 'production',
      SANDBOX: 'true',
      FB_APP_SECRET: 'a-real-app-secret',
      WEBHOOK_VERIFY_TOKEN: 'a-verify-token-of-its-own',
      SANDBOX_WEBHOOK_SECRET: 'whsec_own_secret',
      ...ON,
    }
    for (const env of [
      production,
      { NODE_ENV: 'test', SANDBOX: 'false', ...ON },
      { NODE_ENV: 'test', GRAPH_URL: 'https://graph.facebook.com', ...ON },
    ])
      expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(loadConfig({ NODE_ENV: 'test', ...ON }).TEST_ROUTES).toBe(true)
  })
})

onEveryStore('putting the signed-in account in a subscription state', (kind) => {
  let t: TestApp
  let n = 0
  beforeAll(async () => {
    t = await startTestApp(kind, {}, ON)
  })
  afterAll(() => t.close())

  const fresh = () => login(t.app, `7${kind === 'pglite' ? 1 : 2}0${++n}`)
  const put = (who: Pick<LoggedIn, 'auth'> | undefined, payload: unknown) => putState(t.app, who, payload)
  const user = async (who: LoggedIn) =>
    (await t.app.inject({ url: '/api/v2/user', headers: who.auth })).json().data.subscription

  const expected: Record<SubscriptionStateName, Record<string, unknown>> = {
    'trial-full': { access: true, access_type: 'trial', available_messages: TRIAL_MESSAGES, referral: null },
    'trial-60': { access: true, access_type: 'trial', available_messages: TRIAL_LEFT },
    'none-left': { access: true, access_type: 'trial', available_messages: 0, use_branded_messages: false },
    paid: { access: true, access_type: 'paid', available_messages: 2_000, is_unlimited: false },
    unlimited: { access: true, access_type: 'paid', is_unlimited: true, unlimited_blocked: false },
    'unlimited-blocked': { access: true, is_unlimited: true, unlimited_blocked: true, available_messages: 0 },
    'no-access': { access: false, access_type: 'paid' },
    referral: { access: true, access_type: 'trial', referral: TEST_REFERRAL_CODE },
  }

  it.each(SUBSCRIPTION_STATES)('%s: the app reads the state, past the terms', async (state) => {
    const who = await fresh()
    const res = await put(who, { state })
    expect(res.statusCode).toBe(200)
    expect(res.json().data.subscription).toMatchObject({ ...expected[state], accepted_terms: true })
    expect(await user(who)).toMatchObject({ ...expected[state], accepted_terms: true })
  })

  it('a state replaces the one before it whole', async () => {
    const who = await fresh()
    await put(who, { state: 'unlimited-blocked' })
    await put(who, { state: 'referral' })
    await put(who, { state: 'trial-full' })
    expect(await user(who)).toMatchObject({
      ...expected['trial-full'],
      is_unlimited: false,
      unlimited_blocked: false,
      coupon: null,
    })
  })

  it('the product acts on the states as on its own: a paid plan is cancelled, a referral discounted', async () => {
    const paid = await fresh()
    await put(paid, { state: 'paid' })
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/v2/user/subscriptions/cancel-subscription',
      headers: paid.auth,
      payload: { cancellation_reason: 'Testing' },
    })
    expect(cancel.statusCode).toBe(200)

    const referred = await fresh()
    await put(referred, { state: 'referral' })
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/v2/user/subscriptions/checkout',
      headers: referred.auth,
      payload: {
        price_id: 'plan_starter_monthly',
        success_url: 'http://pagecast.test/?success=true',
        cancel_url: 'http://pagecast.test/?success=false',
      },
    })
    expect(new URL(checkout.json().data.url).searchParams.get('discount')).toMatch(/^15%/)
  })

  it('answers 422 with an errors map for a state it does not know, and 401 to nobody', async () => {
    const who = await fresh()
    for (const payload of [{ state: 'gold' }, {}, { state: 'paid', extra: 1 }]) {
      const res = await put(who, payload)
      expect(res.statusCode).toBe(422)
      expect(Object.keys(res.json().errors).length).toBeGreaterThan(0)
    }
    expect((await put(who, { state: 'gold' })).json().errors.state[0]).toMatch(/trial-full/)
    expect((await put(undefined, { state: 'paid' })).statusCode).toBe(401)
  })
})

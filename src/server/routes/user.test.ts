import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  mySubscription,
  subscriptionResponse,
  subscriptionState,
  userResponse,
} from '../../core/contracts/api.ts'
import { publishTerms } from '../cli/terms.ts'
import { type TestApp, login, setAllowance, startTestApp } from '../testing/harness.ts'

describe('the user, the subscription and the terms', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp()
  })
  afterAll(() => t.close())
  const get = (url: string, auth: Record<string, string>) => t.app.inject({ url, headers: auth })
  const post = (url: string, auth: Record<string, string>, payload?: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: auth,
      ...(payload === undefined ? {} : { payload: payload as string }),
    })

  it('answers the user with the subscription state of the contract', async () => {
    const { auth } = await login(t.app, '2001')
    const body = userResponse.parse((await get('/api/v2/user', auth)).json())
    expect(body.data.subscription).toMatchObject({
      access_type: 'trial',
      available_messages: 500,
      facebook_id: '2001',
    })
  })

  it('answers the available messages as subscription plus add-ons', async () => {
    const { auth } = await login(t.app, '2002')
    await setAllowance(t.app, '2002', { subscriptions_messages: 7, addons_messages: 5 })
    const body = (await get('/api/v2/user/available-messages', auth)).json()
    expect(body.available_messages).toBe(12)
    expect(subscriptionState.parse(body.subscription).addons_messages).toBe(5)
  })

  it('answers my subscription and the list of subscriptions', async () => {
    const { auth } = await login(t.app, '2003')
    const mine = mySubscription.parse((await get('/api/v2/user/subscriptions/my-subscription', auth)).json())
    expect(mine).toMatchObject({ product: 'trial', amount: 0, cancel_at_period_end: false })
    expect(new Date(mine.current_period_end).getTime()).toBeGreaterThan(Date.now())
    const list = (await get('/api/v2/user/subscriptions', auth)).json()
    expect(list.data).toEqual([mine])
  })

  it('authorises branded messages only with use_branded_messages true', async () => {
    const { auth } = await login(t.app, '2004')
    expect(
      (await post('/api/v2/user/confirm-brand-messages-usage', auth, { use_branded_messages: false }))
        .statusCode,
    ).toBe(422)
    expect(
      (await post('/api/v2/user/confirm-brand-messages-usage', auth, { use_branded_messages: 'yes' }))
        .statusCode,
    ).toBe(422)
    const ok = await post('/api/v2/user/confirm-brand-messages-usage', auth, { use_branded_messages: true })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().data.subscription.use_branded_messages).toBe(true)
  })

  it('serves the latest terms publicly, and a new version has to be accepted again', async () => {
    const first = (await t.app.inject({ url: '/api/v2/term-and-condition' })).json()
    expect(first.content).toMatch(/Terms and conditions/)
    expect(Number.isNaN(Date.parse(first.created_at))).toBe(false)

    const { auth } = await login(t.app, '2005')
    const accepted = await post('/api/v2/user/accept-terms', auth)
    expect(subscriptionResponse.parse(accepted.json()).data.subscription.accepted_terms).toBe(true)
    expect((await post('/api/v2/user/accept-terms', auth, {})).statusCode).toBe(200)
    expect((await post('/api/v2/user/accept-terms', auth, { terms: 1 })).statusCode).toBe(422)

    await publishTerms(t.app.store, '# Terms, second edition\n\nNew rules.')
    expect((await t.app.inject({ url: '/api/v2/term-and-condition' })).json().content).toMatch(
      /second edition/,
    )
    expect((await get('/api/v2/user', auth)).json().data.subscription.accepted_terms).toBe(false)
    await post('/api/v2/user/accept-terms', auth)
    expect((await get('/api/v2/user', auth)).json().data.subscription.accepted_terms).toBe(true)
  })

  it('refuses every user route without a session', async () => {
    for (const url of [
      '/api/v2/user',
      '/api/v2/user/available-messages',
      '/api/v2/user/subscriptions',
      '/api/v2/user/subscriptions/my-subscription',
    ]) {
      const res = await t.app.inject({ url })
      expect(res.statusCode).toBe(401)
      expect(res.json().message).toBeTruthy()
    }
    for (const url of ['/api/v2/user/accept-terms', '/api/v2/user/confirm-brand-messages-usage']) {
      expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(401)
    }
  })
})

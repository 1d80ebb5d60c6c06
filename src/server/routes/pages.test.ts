import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type LoggedIn,
  type TestApp,
  login,
  pageToken,
  registerPage,
  setAllowance,
  startTestApp,
} from '../testing/harness.ts'
import { PAGE_BANNED, TRIAL_USED } from './pages.ts'

describe('page registration and token extension', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp('pglite', { demo: { bannedPageIds: ['900'], trialUsedPageIds: ['901'] } })
  })
  afterAll(() => t.close())
  /** Sends the page token the fake network issued to `who` for the page, unless the payload names one. */
  const register = (who: LoggedIn, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v2/page',
      headers: who.auth,
      payload: { access_token: pageToken(String(payload.id), who.user.facebook_id), ...payload },
    })

  it('registers the page a trial user opens and answers the subscription', async () => {
    const user = await login(t.app, '3001')
    const res = await register(user, {
      id: '500',
      name: 'Bakery',
      category: 'Food',
      fan_count: 12,
      picture: 'https://x/p.jpg',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().data.subscription).toMatchObject({ access_type: 'trial' })
    expect((await register(user, { id: '500', name: 'Bakery' })).statusCode).toBe(200)
  })

  it('refuses a page whose trial another user used, with the used-trial message, but not to a paying user', async () => {
    const other = await login(t.app, '3002')
    const refused = await register(other, { id: '500', name: 'Bakery' })
    expect(refused.statusCode).toBe(406)
    expect(refused.json()).toEqual({ message: TRIAL_USED, code: 'trial_used' })
    await setAllowance(t.app, '3002', { access_type: 'paid' })
    expect((await register(other, { id: '500', name: 'Bakery' })).statusCode).toBe(200)
  })

  it('refuses the demo pages marked banned and trial-used', async () => {
    const user = await login(t.app, '3003')
    const banned = await register(user, { id: '900', name: 'Banned' })
    expect(banned.statusCode).toBe(406)
    expect(banned.json()).toEqual({ message: PAGE_BANNED, code: 'page_banned' })
    const used = await register(user, { id: '901', name: 'Used' })
    expect(used.statusCode).toBe(406)
    expect(used.json()).toEqual({ message: TRIAL_USED, code: 'trial_used' })
  })

  it('tells a home which of its pages are banned, and refuses a malformed list with 422', async () => {
    const user = await login(t.app, '3010')
    const standing = (ids: string) =>
      t.app.inject({ method: 'GET', url: `/api/v2/page/standing?ids=${ids}`, headers: user.auth })
    const res = await standing('900,901,500,77')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ data: { '900': 'banned' } })
    for (const bad of ['', 'x', '1,,2', Array.from({ length: 201 }, (_, i) => i + 1).join(',')]) {
      const refused = await standing(bad)
      expect(refused.statusCode).toBe(422)
      expect(refused.json().errors.ids).toBeDefined()
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v2/page/standing?ids=900' })).statusCode).toBe(401)
  })

  it('lets only one of two trial users racing for a fresh page take its trial', async () => {
    const a = await login(t.app, '3004')
    const b = await login(t.app, '3005')
    const [ra, rb] = await Promise.all([
      register(a, { id: '600', name: 'P' }),
      register(b, { id: '600', name: 'P' }),
    ])
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 406])
  })

  it.each([
    ['a non-numeric id', { id: 'abc', name: 'x' }],
    ['a missing name', { id: '1' }],
    ['an extra field', { id: '1', name: 'x', banned: false }],
    ['a negative fan count', { id: '1', name: 'x', fan_count: -1 }],
  ])('answers %s with 422', async (_what, payload) => {
    const user = await login(t.app, '3006')
    const res = await register(user, payload)
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toBeTruthy()
  })

  it('refuses a page token the network does not vouch for with 422 on access_token, writing nothing', async () => {
    const user = await login(t.app, '3010')
    const cases: [string, RegExp][] = [
      ['made-up', /refused/],
      ['fb:3010', /not a page token/],
      [pageToken('700', '3011'), /another user/],
      [pageToken('701', '3010'), /another page/],
    ]
    for (const [token, message] of cases) {
      const res = await register(user, { id: '700', name: 'Not mine', access_token: token })
      expect(res.statusCode).toBe(422)
      expect(res.json().errors.access_token[0]).toMatch(message)
    }
    expect(await t.app.store.query('SELECT 1 FROM pages WHERE id = $1', ['700'])).toHaveLength(0)
    const missing = await register(user, { id: '700', name: 'x', access_token: undefined })
    expect(missing.statusCode).toBe(422)
    expect(missing.json().errors.access_token).toBeTruthy()
  })

  it('answers 502 when the network cannot be asked about the page token', async () => {
    const user = await login(t.app, '3012')
    const res = await register(user, { id: '702', name: 'x', access_token: 'unreachable' })
    expect(res.statusCode).toBe(502)
    expect(res.json().message).toMatch(/could not be reached/)
  })

  it('refuses to extend the token of a page the caller has not registered with 403', async () => {
    const { auth } = await login(t.app, '3013')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/page/extend-token',
      headers: auth,
      payload: { access_token: 'page:703', page_id: '703' },
    })
    expect(res.statusCode).toBe(403)
  })

  it('exchanges a page token server-side and answers accessToken', async () => {
    const { auth } = await login(t.app, '3007')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/page/extend-token',
      headers: auth,
      payload: { access_token: 'page:abc' },
    })
    expect(res.json()).toEqual({ accessToken: 'long:page:abc' })
  })

  it('answers a valid page token the network will not exchange unchanged, when it belongs to the page named', async () => {
    const user = await login(t.app, '3009')
    const { auth } = user
    await registerPage(t.app, user, '123')
    await registerPage(t.app, user, '999')
    const extend = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/page/extend-token',
        headers: auth,
        payload: payload as string,
      })
    expect((await extend({ access_token: 'page:123', page_id: '123' })).json()).toEqual({
      accessToken: 'page:123',
    })
    expect((await extend({ access_token: 'page:123', page_id: '999' })).statusCode).toBe(422)
    expect((await extend({ access_token: 'page:123' })).statusCode).toBe(422)
  })

  it('answers a refused page token with 422 (the session stays valid) and an unreachable network with 502', async () => {
    const { auth } = await login(t.app, '3008')
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v2/page/extend-token',
      headers: auth,
      payload: { access_token: 'nope' },
    })
    expect(refused.statusCode).toBe(422)
    expect(refused.json().errors.access_token[0]).toMatch(/refused/)
    const down = await t.app.inject({
      method: 'POST',
      url: '/api/v2/page/extend-token',
      headers: auth,
      payload: { access_token: 'unreachable' },
    })
    expect(down.statusCode).toBe(502)
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v2/page/extend-token',
      headers: auth,
      payload: {},
    })
    expect(missing.statusCode).toBe(422)
  })
})

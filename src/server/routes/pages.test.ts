import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestApp, login, setAllowance, startTestApp } from '../testing/harness.ts'
import { PAGE_BANNED, TRIAL_USED } from './pages.ts'

describe('page registration and token extension', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp('pglite', { demo: { bannedPageIds: ['900'], trialUsedPageIds: ['901'] } })
  })
  afterAll(() => t.close())
  const register = (auth: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/v2/page', headers: auth, payload: payload as string })

  it('registers the page a trial user opens and answers the subscription', async () => {
    const { auth } = await login(t.app, '3001')
    const res = await register(auth, {
      id: '500',
      name: 'Bakery',
      category: 'Food',
      fan_count: 12,
      picture: 'https://x/p.jpg',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().data.subscription).toMatchObject({ access_type: 'trial' })
    expect((await register(auth, { id: '500', name: 'Bakery' })).statusCode).toBe(200)
  })

  it('refuses a page whose trial another user used, with the spec message, but not to a paying user', async () => {
    const other = await login(t.app, '3002')
    const refused = await register(other.auth, { id: '500', name: 'Bakery' })
    expect(refused.statusCode).toBe(406)
    expect(refused.json()).toEqual({ message: TRIAL_USED, code: 'trial_used' })
    await setAllowance(t.app, '3002', { access_type: 'paid' })
    expect((await register(other.auth, { id: '500', name: 'Bakery' })).statusCode).toBe(200)
  })

  it('refuses the demo pages marked banned and trial-used', async () => {
    const { auth } = await login(t.app, '3003')
    const banned = await register(auth, { id: '900', name: 'Banned' })
    expect(banned.statusCode).toBe(406)
    expect(banned.json()).toEqual({ message: PAGE_BANNED, code: 'page_banned' })
    const used = await register(auth, { id: '901', name: 'Used' })
    expect(used.statusCode).toBe(406)
    expect(used.json()).toEqual({ message: TRIAL_USED, code: 'trial_used' })
  })

  it('lets only one of two trial users racing for a fresh page take its trial', async () => {
    const a = await login(t.app, '3004')
    const b = await login(t.app, '3005')
    const [ra, rb] = await Promise.all([
      register(a.auth, { id: '600', name: 'P' }),
      register(b.auth, { id: '600', name: 'P' }),
    ])
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 406])
  })

  it.each([
    ['a non-numeric id', { id: 'abc', name: 'x' }],
    ['a missing name', { id: '1' }],
    ['an extra field', { id: '1', name: 'x', banned: false }],
    ['a negative fan count', { id: '1', name: 'x', fan_count: -1 }],
  ])('answers %s with 422', async (_what, payload) => {
    const { auth } = await login(t.app, '3006')
    const res = await register(auth, payload)
    expect(res.statusCode).toBe(422)
    expect(res.json().errors).toBeTruthy()
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
    const { auth } = await login(t.app, '3009')
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

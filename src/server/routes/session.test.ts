import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientConfig } from '../../core/contracts/client-config.ts'
import { hashToken } from '../http/auth.ts'
import { type TestApp, login, startTestApp, testConfig } from '../testing/harness.ts'
import { clientConfigOf } from './session.ts'

describe('the client configuration', () => {
  it('points the app at the sandbox by a relative URL when the sandbox is on and no Graph URL is set', () => {
    const c = clientConfigOf(testConfig({ PACING_SCALE: '0.01' }))
    expect(clientConfig.parse(c)).toMatchObject({
      social: 'sandbox',
      graphUrl: '/sandbox/graph',
      pacingScale: 0.01,
    })
  })

  it('points the app at the real network, with real pacing, when the sandbox is off', () => {
    const c = clientConfigOf(
      testConfig({
        SANDBOX: 'false',
        GRAPH_URL: 'https://graph.facebook.com',
        PACING_SCALE: '0.01',
        MESSAGING_POLICY: 'legacy',
      }),
    )
    expect(c).toMatchObject({
      social: 'facebook',
      graphUrl: 'https://graph.facebook.com',
      pacingScale: 1,
      messagingPolicy: 'legacy',
    })
  })
})

describe('login', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp()
  })
  afterAll(() => t.close())

  const post = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/v2/login', payload: payload as string, headers })

  it('serves the client configuration publicly', async () => {
    const res = await t.app.inject({ url: '/api/v2/config' })
    expect(res.statusCode).toBe(200)
    expect(clientConfig.parse(res.json()).social).toBe('sandbox')
  })

  it('logs a new user in with a trial and a 256-bit token stored only as its hash', async () => {
    const { token, user } = await login(t.app, '1001')
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    expect(user).toMatchObject({ facebook_id: '1001', name: 'User 1001', email: 'user1001@example.com' })
    expect(user.subscription).toMatchObject({
      access: true,
      access_type: 'trial',
      accepted_terms: false,
      available_messages: 500,
    })
    const rows = await t.app.store.query<{ token_hash: string }>('SELECT token_hash FROM sessions')
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token))
    expect(rows.map((r) => r.token_hash)).not.toContain(token)
  })

  it("keeps the first affiliate's referral and coupon a user came with", async () => {
    await t.app.store.query(
      "INSERT INTO affiliates (code) VALUES ('friend-a'), ('friend-b'), ('REF15') ON CONFLICT DO NOTHING",
    )
    await login(t.app, '1002', { referral: 'friend-a', coupon: 'REF15' })
    const again = await login(t.app, '1002', { referral: 'friend-b' })
    expect(again.user.subscription).toMatchObject({ referral: 'friend-a', coupon: 'REF15' })
  })

  it('gives a returning user a new session and the same account', async () => {
    const a = await login(t.app, '1003')
    const b = await login(t.app, '1003')
    expect(b.user.id).toBe(a.user.id)
    expect(b.token).not.toBe(a.token)
    for (const auth of [a.auth, b.auth])
      expect((await t.app.inject({ url: '/api/v2/user', headers: auth })).statusCode).toBe(200)
  })

  it('ends only the session logged out', async () => {
    const a = await login(t.app, '1010')
    const b = await login(t.app, '1010')
    expect((await t.app.inject({ method: 'POST', url: '/api/v2/logout', headers: a.auth })).json()).toEqual({
      ok: true,
    })
    expect((await t.app.inject({ url: '/api/v2/user', headers: a.auth })).statusCode).toBe(401)
    expect((await t.app.inject({ url: '/api/v2/user', headers: b.auth })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'POST', url: '/api/v2/logout' })).statusCode).toBe(401)
  })

  it('refuses a login with a declined permission, naming it', async () => {
    const res = await post({ access_token: 'fb:1004:decline=pages_messaging,email' })
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toMatch(/pages_messaging, email/)
  })

  it('refuses a login whose required permission is declined even when also listed as granted', async () => {
    const res = await post({ access_token: 'fb:1005:both=pages_messaging' })
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toMatch(/pages_messaging/)
  })

  it('refuses a token the network does not accept with 401', async () => {
    const res = await post({ access_token: 'not-a-token' })
    expect(res.statusCode).toBe(401)
    expect(res.json().message).toMatch(/could not be verified/)
  })

  it.each([
    ['malformed JSON', '{"access_token": ', { 'content-type': 'application/json' }],
    ['an empty JSON body', '', { 'content-type': 'application/json' }],
    ['a wrong type', { access_token: 42 }, {}],
    ['a missing field', { referral: 'x' }, {}],
    ['an extra field', { access_token: 'fb:1', admin: true }, {}],
    ['an empty token', { access_token: '' }, {}],
    ['an array', [1, 2], {}],
  ])('answers %s with 422 and an errors map', async (_what, payload, headers) => {
    const res = await post(payload, headers)
    expect(res.statusCode).toBe(422)
    const body = res.json() as { message: string; errors: Record<string, string[]> }
    expect(body.message).toBeTruthy()
    expect(Object.values(body.errors).flat().length).toBeGreaterThan(0)
  })

  it('names the offending fields in the errors map', async () => {
    const res = await post({ access_token: 42, admin: true })
    expect(Object.keys(res.json().errors).sort()).toEqual(['access_token', 'admin'])
  })

  it('answers a body over 1 MB with 413', async () => {
    const res = await post(JSON.stringify({ access_token: 'x'.repeat(1_100_000) }), {
      'content-type': 'application/json',
    })
    expect(res.statusCode).toBe(413)
    expect(res.json().message).toMatch(/too large/)
  })

  it('answers an unsupported content type with 415, and plain text with 422, each with a message', async () => {
    const xml = await post('<access_token/>', { 'content-type': 'application/xml' })
    expect(xml.statusCode).toBe(415)
    expect(xml.json().message).toBeTruthy()
    const text = await post('access_token=x', { 'content-type': 'text/plain' })
    expect(text.statusCode).toBe(422)
  })

  it('answers calls without a bearer, or with an unknown one, with 401 JSON', async () => {
    const none = await t.app.inject({ url: '/api/v2/user' })
    expect(none.statusCode).toBe(401)
    expect(none.json().message).toMatch(/bearer/)
    const unknown = await t.app.inject({
      url: '/api/v2/user',
      headers: { authorization: `Bearer ${'A'.repeat(43)}` },
    })
    expect(unknown.statusCode).toBe(401)
    const garbage = await t.app.inject({ url: '/api/v2/user', headers: { authorization: 'Basic abc' } })
    expect(garbage.statusCode).toBe(401)
  })

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/v2/nowhere' })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toMatch(/No route/)
  })
})

describe('login when the network cannot be reached', () => {
  it('answers 502 with a message, not 500', async () => {
    const t = await startTestApp('pglite', {
      fetch: () => Promise.reject(new TypeError('fetch failed')),
      graph: undefined,
    })
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/login',
        payload: { access_token: 'fb:1' },
      })
      expect(res.statusCode).toBe(502)
      expect(res.json().message).toMatch(/could not be reached/)
    } finally {
      await t.close()
    }
  })
})

describe('login rate limit', () => {
  it('answers 429 with a message past the per-minute limit', async () => {
    const t = await startTestApp('pglite', { rateLimits: { login: 3 } })
    try {
      const codes: number[] = []
      for (let i = 0; i < 5; i++) {
        codes.push(
          (await t.app.inject({ method: 'POST', url: '/api/v2/login', payload: { access_token: `fb:${i}` } }))
            .statusCode,
        )
      }
      expect(codes).toEqual([200, 200, 200, 429, 429])
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/login',
        payload: { access_token: 'fb:9' },
      })
      expect(res.json().message).toMatch(/Too many requests/)
    } finally {
      await t.close()
    }
  })
  it('counts a client by its own address when it forges X-Forwarded-For from a private network', async () => {
    const t = await startTestApp('pglite', { rateLimits: { login: 3 } })
    try {
      const codes: number[] = []
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v2/login',
          remoteAddress: '10.1.2.3',
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
          payload: { access_token: `fb:${i}` },
        })
        codes.push(res.statusCode)
      }
      expect(codes).toEqual([200, 200, 200, 429, 429])
    } finally {
      await t.close()
    }
  })

  it('counts each client behind a proxy on this machine by its forwarded address', async () => {
    const t = await startTestApp('pglite', { rateLimits: { login: 1 } })
    try {
      const codes: number[] = []
      for (const client of ['198.51.100.1', '198.51.100.2', '198.51.100.1']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v2/login',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': client },
          payload: { access_token: 'fb:1' },
        })
        codes.push(res.statusCode)
      }
      expect(codes).toEqual([200, 200, 429])
    } finally {
      await t.close()
    }
  })
})

describe('the session cookie', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp('pglite', {}, { SESSION_IDLE_DAYS: '7' })
  })
  afterAll(() => t.close())
  const WEEK = 7 * 86_400

  /** The attributes of the `pagecast_session` cookie a response sets, or undefined. */
  function sessionCookie(res: { headers: Record<string, unknown> }) {
    const header = res.headers['set-cookie']
    const lines = (Array.isArray(header) ? header : [header]).filter(
      (l): l is string => typeof l === 'string',
    )
    const line = lines.find((l) => l.startsWith('pagecast_session='))
    if (!line) return undefined
    const [pair, ...attributes] = line.split(/;\s*/)
    return {
      value: pair!.slice('pagecast_session='.length),
      attributes: attributes.map((a) => a.toLowerCase()),
    }
  }
  const withCookie = (token: string) => ({
    authorization: `Bearer ${token}`,
    cookie: `pagecast_session=${token}`,
  })

  it('is set by the login for as long as the session lasts without use, SameSite=Strict, on the whole site', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/login',
      payload: { access_token: 'fb:9301' },
    })
    const cookie = sessionCookie(res)!
    expect(cookie.value).toBe(res.json().data.token)
    expect(cookie.attributes).toEqual(
      expect.arrayContaining([`max-age=${WEEK}`, 'path=/', 'samesite=strict']),
    )
    // Readable by the app, which sends it as its bearer (README, "The session cookie"); never Secure on http.
    expect(cookie.attributes).not.toContain('httponly')
    expect(cookie.attributes).not.toContain('secure')
  })

  it('is Secure when the request came over https', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/login',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { access_token: 'fb:9302' },
    })
    expect(sessionCookie(res)!.attributes).toContain('secure')
  })

  it("is renewed when a use moves the session's period forward, and only then", async () => {
    const who = await login(t.app, '9303')
    const fresh = await t.app.inject({ url: '/api/v2/user', headers: withCookie(who.token) })
    expect(fresh.statusCode).toBe(200)
    expect(sessionCookie(fresh)).toBeUndefined()

    const age = async () => {
      await t.app.store.query(
        `UPDATE sessions SET last_used_at = now() - interval '1 day' WHERE token_hash = $1`,
        [hashToken(who.token)],
      )
    }
    await age()
    // A caller without the cookie (another program with the bearer) gets none.
    const bare = await t.app.inject({ url: '/api/v2/user', headers: who.auth })
    expect(bare.statusCode).toBe(200)
    expect(sessionCookie(bare)).toBeUndefined()

    await age()
    const used = await t.app.inject({ url: '/api/v2/user', headers: withCookie(who.token) })
    expect(used.statusCode).toBe(200)
    const renewed = sessionCookie(used)!
    expect(renewed.value).toBe(who.token)
    expect(renewed.attributes).toEqual(
      expect.arrayContaining([`max-age=${WEEK}`, 'path=/', 'samesite=strict']),
    )
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashToken } from '../http/auth.ts'
import { type LoggedIn, type TestApp, login, onEveryStore, startTestApp } from '../testing/harness.ts'

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const MAC_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'

interface SessionRow {
  id: string
  created_at: string
  last_used_at: string
  device: string
  user_agent: string | null
  current: boolean
}

async function loginAs(t: TestApp, facebookId: string, userAgent?: string): Promise<LoggedIn> {
  if (!userAgent) return login(t.app, facebookId)
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v2/login',
    payload: { access_token: `fb:${facebookId}` },
    headers: { 'user-agent': userAgent },
  })
  const body = res.json() as { data: { token: string; user: LoggedIn['user'] } }
  return {
    token: body.data.token,
    user: body.data.user,
    auth: { authorization: `Bearer ${body.data.token}` },
  }
}

/** Moves a session's last use into the past, as if the device had not been used since. */
async function idleFor(t: TestApp, token: string, interval: string): Promise<void> {
  await t.app.store.query(`UPDATE sessions SET last_used_at = now() - $2::interval WHERE token_hash = $1`, [
    hashToken(token),
    interval,
  ])
}

async function lastUsed(t: TestApp, token: string): Promise<number | undefined> {
  const rows = await t.app.store.query<{ last_used_at: Date | string }>(
    'SELECT last_used_at FROM sessions WHERE token_hash = $1',
    [hashToken(token)],
  )
  return rows[0] ? new Date(rows[0].last_used_at).getTime() : undefined
}

const status = async (t: TestApp, auth: LoggedIn['auth']) =>
  (await t.app.inject({ url: '/api/v2/user', headers: auth })).statusCode

onEveryStore('sessions', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { SESSION_IDLE_DAYS: '30' })
  })
  afterAll(() => t.close())

  describe('logout', () => {
    it('ends the session on the server: the old bearer answers 401 afterwards', async () => {
      const a = await login(t.app, '2001')
      expect(await status(t, a.auth)).toBe(200)
      const out = await t.app.inject({ method: 'POST', url: '/api/v2/logout', headers: a.auth })
      expect(out.statusCode).toBe(200)
      expect(await status(t, a.auth)).toBe(401)
      expect(await lastUsed(t, a.token)).toBeUndefined()
    })
  })

  describe('sliding expiry', () => {
    it('refuses a session unused for longer than SESSION_IDLE_DAYS with 401 and deletes it', async () => {
      const a = await login(t.app, '2002')
      await idleFor(t, a.token, '31 days')
      const res = await t.app.inject({ url: '/api/v2/user', headers: a.auth })
      expect(res.statusCode).toBe(401)
      expect(res.json().message).toMatch(/ended|expired/)
      expect(await lastUsed(t, a.token)).toBeUndefined()
    })

    it('keeps a session used within the period and slides its expiry forward', async () => {
      const a = await login(t.app, '2003')
      await idleFor(t, a.token, '29 days')
      expect(await status(t, a.auth)).toBe(200)
      expect(Date.now() - (await lastUsed(t, a.token))!).toBeLessThan(60_000)
      // 29 more days after that use: still inside the period measured from the last use.
      await idleFor(t, a.token, '29 days')
      expect(await status(t, a.auth)).toBe(200)
    })

    it('writes the last use at most once every few minutes, not on every request', async () => {
      const a = await login(t.app, '2004')
      await idleFor(t, a.token, '2 minutes')
      const before = await lastUsed(t, a.token)
      expect(await status(t, a.auth)).toBe(200)
      expect(await status(t, a.auth)).toBe(200)
      expect(await lastUsed(t, a.token)).toBe(before)
      await idleFor(t, a.token, '6 minutes')
      expect(await status(t, a.auth)).toBe(200)
      expect(Date.now() - (await lastUsed(t, a.token))!).toBeLessThan(60_000)
    })

    it('removes other expired sessions when someone logs in', async () => {
      const a = await login(t.app, '2005')
      await idleFor(t, a.token, '40 days')
      await login(t.app, '2006')
      expect(await lastUsed(t, a.token)).toBeUndefined()
    })
  })

  describe('listing and revoking', () => {
    it('lists the caller’s sessions with device, dates and the current one, never a token or its hash', async () => {
      const phone = await loginAs(t, '2010', ANDROID_CHROME)
      const laptop = await loginAs(t, '2010', MAC_SAFARI)
      await loginAs(t, '2011', ANDROID_CHROME)
      const res = await t.app.inject({ url: '/api/v2/sessions', headers: laptop.auth })
      expect(res.statusCode).toBe(200)
      const list = (res.json() as { data: SessionRow[] }).data
      expect(list).toHaveLength(2)
      const current = list.find((s) => s.current)!
      expect(current.device).toBe('Safari · macOS')
      expect(list.find((s) => !s.current)!.device).toBe('Chrome · Android')
      for (const s of list) {
        expect(s.id).toMatch(/^\d+$/)
        expect(Date.parse(s.created_at)).not.toBeNaN()
        expect(Date.parse(s.last_used_at)).not.toBeNaN()
      }
      const raw = res.body
      for (const secret of [phone.token, laptop.token, hashToken(phone.token), hashToken(laptop.token)])
        expect(raw).not.toContain(secret)
      expect(Object.keys(current).sort()).toEqual(
        ['created_at', 'current', 'device', 'id', 'last_used_at', 'user_agent'].sort(),
      )
    })

    it('names a headless Chrome and an unknown device', async () => {
      const headless = await loginAs(
        t,
        '2012',
        'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/131.0.0.0 Safari/537.36',
      )
      await loginAs(t, '2012', 'curl/8.5')
      const list = (await t.app.inject({ url: '/api/v2/sessions', headers: headless.auth })).json() as {
        data: SessionRow[]
      }
      expect(list.data.map((s) => s.device).sort()).toEqual(['', 'Chrome · Linux'])
    })

    it('revokes one of the caller’s sessions by id', async () => {
      const phone = await loginAs(t, '2020', ANDROID_CHROME)
      const laptop = await loginAs(t, '2020', MAC_SAFARI)
      const list = (await t.app.inject({ url: '/api/v2/sessions', headers: laptop.auth })).json() as {
        data: SessionRow[]
      }
      const other = list.data.find((s) => !s.current)!
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v2/sessions/${other.id}`,
        headers: laptop.auth,
      })
      expect(res.statusCode).toBe(200)
      expect(await status(t, phone.auth)).toBe(401)
      expect(await status(t, laptop.auth)).toBe(200)
    })

    it('answers 404 to revoking another user’s session and leaves it working', async () => {
      const mine = await login(t.app, '2030')
      const theirs = await login(t.app, '2031')
      const theirList = (await t.app.inject({ url: '/api/v2/sessions', headers: theirs.auth })).json() as {
        data: SessionRow[]
      }
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v2/sessions/${theirList.data[0]!.id}`,
        headers: mine.auth,
      })
      expect(res.statusCode).toBe(404)
      expect(await status(t, theirs.auth)).toBe(200)
    })

    it.each(['abc', '-1', '1.5', '9'.repeat(30)])(
      'answers a malformed id (%s) with 422 and an errors map',
      async (id) => {
        const a = await login(t.app, '2040')
        const res = await t.app.inject({ method: 'DELETE', url: `/api/v2/sessions/${id}`, headers: a.auth })
        expect(res.statusCode).toBe(422)
        expect(Object.keys(res.json().errors)).toEqual(['id'])
      },
    )

    it('signs out every other device of the caller, keeping this one and other users’', async () => {
      const one = await login(t.app, '2050')
      const two = await login(t.app, '2050')
      const here = await login(t.app, '2050')
      const stranger = await login(t.app, '2051')
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/sessions/revoke-others',
        headers: here.auth,
        payload: {},
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ revoked: 2 })
      expect(await status(t, one.auth)).toBe(401)
      expect(await status(t, two.auth)).toBe(401)
      expect(await status(t, here.auth)).toBe(200)
      expect(await status(t, stranger.auth)).toBe(200)
    })

    it('validates the sign-out-everywhere payload', async () => {
      const a = await login(t.app, '2060')
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/sessions/revoke-others',
        headers: a.auth,
        payload: { everyone: true },
      })
      expect(res.statusCode).toBe(422)
      expect(Object.keys(res.json().errors)).toEqual(['everyone'])
    })

    it('keeps the device’s session when a login carries its bearer, and ends another user’s', async () => {
      const first = await loginAs(t, '2070', ANDROID_CHROME)
      const relogin = (facebookId: string, auth: LoggedIn['auth']) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v2/login',
          payload: { access_token: `fb:${facebookId}` },
          headers: { 'user-agent': ANDROID_CHROME, ...auth },
        })
      const again = (await relogin('2070', first.auth)).json() as { data: { token: string } }
      expect(again.data.token).toBe(first.token)
      const list = (await t.app.inject({ url: '/api/v2/sessions', headers: first.auth })).json() as {
        data: SessionRow[]
      }
      expect(list.data).toHaveLength(1)
      const someoneElse = (await relogin('2071', first.auth)).json() as { data: { token: string } }
      expect(someoneElse.data.token).not.toBe(first.token)
      expect(await status(t, first.auth)).toBe(401)
    })

    it('requires a session for every sessions route', async () => {
      for (const [method, url] of [
        ['GET', '/api/v2/sessions'],
        ['DELETE', '/api/v2/sessions/1'],
        ['POST', '/api/v2/sessions/revoke-others'],
      ] as const)
        expect((await t.app.inject({ method, url })).statusCode).toBe(401)
    })
  })
})

describe('the idle period is configuration', () => {
  it('follows SESSION_IDLE_DAYS', async () => {
    const t = await startTestApp('pglite', {}, { SESSION_IDLE_DAYS: '2' })
    try {
      const a = await login(t.app, '2100')
      await idleFor(t, a.token, '47 hours')
      expect(await status(t, a.auth)).toBe(200)
      await idleFor(t, a.token, '49 hours')
      expect(await status(t, a.auth)).toBe(401)
    } finally {
      await t.close()
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LoggedIn, type TestApp, login, registerPage, startTestApp } from '../testing/harness.ts'

/** PostgreSQL refuses U+0000 in text: every body carrying it is answered 422 naming the field, never 500. */
describe('a NUL character in a text field', () => {
  let t: TestApp
  let user: LoggedIn
  beforeAll(async () => {
    t = await startTestApp()
    user = await login(t.app, '5501')
  })
  afterAll(() => t.close())

  const post = (url: string, payload: unknown, auth = true) =>
    t.app.inject({ method: 'POST', url, headers: auth ? user.auth : {}, payload: payload as string })

  const expectRefused = async (res: Awaited<ReturnType<typeof post>>, field: string): Promise<void> => {
    expect(res.statusCode).toBe(422)
    expect(res.json().errors[field]?.[0]).toMatch(/NUL/)
  }

  it('is refused in the login body', async () => {
    await expectRefused(
      await post('/api/v2/login', { access_token: 'fb:5502', referral: 'friend\u0000' }, false),
      'referral',
    )
  })

  it('is refused in a page registration', async () => {
    await expectRefused(
      await post('/api/v2/page', { id: '5503', name: 'Bakery\u0000', access_token: 'page:5503' }),
      'name',
    )
  })

  it('is refused in a new bulk message', async () => {
    const res = await post('/api/v2/messages', {
      page_id: '5504',
      message_type_id: 3,
      message: 'Hello\u0000there',
      label: '[]',
      total_messages: 0,
      branded_messages_amount: 0,
    })
    await expectRefused(res, 'message')
  })

  it('is refused in a touch, nested fields named by their path', async () => {
    const touch = (payload: Record<string, unknown>) =>
      post('/api/v2/messages/1/touch', { _method: 'PUT', status: 'NG', recipient_id: 'r1', ...payload })
    await expectRefused(await touch({ recipient_id: 'r\u0000' }), 'recipient_id')
    await expectRefused(
      await touch({ error_data: { error_message: 'boom\u0000', recipent_id: 'r1' } }),
      'error_data.error_message',
    )
  })
})

/**
 * Bodies no route could store or send: nested thousands of levels deep, or holding an unpaired surrogate. Each
 * is answered 422 naming the field, before any route (or the network) sees it.
 */
describe('odd bodies', () => {
  let t: TestApp
  let user: LoggedIn
  beforeAll(async () => {
    t = await startTestApp()
    user = await login(t.app, '5511')
    await registerPage(t.app, user, '5512')
  })
  afterAll(() => t.close())

  const send = (method: 'POST' | 'PUT', url: string, payload: string, auth = true) =>
    t.app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json', ...(auth ? user.auth : {}) },
      payload,
    })
  const DEEP = `${'['.repeat(3_000)}${']'.repeat(3_000)}`

  it('refuses JSON nested 3,000 deep with 422 on every route, signed in or not', async () => {
    const routes: ['POST' | 'PUT', string][] = [
      ['POST', '/api/v2/login'],
      ['POST', '/api/v2/messages'],
      ['POST', '/api/v2/saved-replies'],
      ['PUT', '/api/v2/push/settings'],
      ['POST', '/api/v2/page'],
      ['POST', '/api/v2/page/extend-token'],
      ['PUT', '/api/v2/pages/5512/marketing'],
      ['POST', '/api/v2/pages/5512/marketing/sync'],
      ['POST', '/api/v2/sessions/revoke-others'],
    ]
    for (const [method, url] of routes) {
      for (const body of [DEEP, `{"access_token":${DEEP}}`]) {
        const res = await send(method, url, body, url !== '/api/v2/login')
        expect(res.statusCode, `${method} ${url}`).toBe(422)
        const errors = res.json().errors as Record<string, string[]>
        expect(Object.values(errors).flat().join(' '), `${method} ${url}`).toMatch(/nested too deeply/)
      }
    }
    const res = await send('POST', '/api/v2/login', `{"access_token":${DEEP}}`, false)
    expect(Object.keys(res.json().errors)[0]).toMatch(/^access_token(\.0)+$/)
  })

  it('refuses an unpaired surrogate in a touch’s error_data, naming its path', async () => {
    for (const method of ['POST', 'PUT'] as const) {
      const res = await send(
        method,
        '/api/v2/messages/1/touch',
        JSON.stringify({
          _method: 'PUT',
          status: 'NG',
          recipient_id: 'r1',
          error_data: { error_message: 'boom \ud800', recipent_id: 'r1', recipent_name: '\udc00' },
        }),
      )
      expect(res.statusCode).toBe(422)
      expect(res.json().errors['error_data.error_message']?.[0]).toMatch(/unpaired surrogate/)
      expect(res.json().errors['error_data.recipent_name']?.[0]).toMatch(/unpaired surrogate/)
    }
  })

  it('refuses NUL in the query string and the path', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: user.auth })
    const query = await get('/api/v2/messages?state=a%00b')
    expect(query.statusCode).toBe(422)
    expect(query.json().errors.state?.[0]).toMatch(/NUL/)
    const path = await get('/api/v2/pages/55%0012/marketing')
    expect(path.statusCode).toBe(422)
    expect(path.json().errors.pageId?.[0]).toMatch(/NUL/)
  })

  describe('in a token the network would check', () => {
    /** The network calls the app made (the real Graph client, refused here). */
    const networkCalls: string[] = []
    let real: TestApp
    beforeAll(async () => {
      real = await startTestApp('pglite', {
        graph: undefined,
        fetch: async (input) => {
          networkCalls.push(String(input instanceof Request ? input.url : input))
          return new Response(JSON.stringify({ error: { message: 'Invalid token.', code: 190 } }), {
            status: 400,
          })
        },
      })
    })
    afterAll(() => real.close())

    it('refuses an unpaired surrogate in a token with 422 before asking the network', async () => {
      networkCalls.length = 0
      for (const token of ['\ud800', 'EAA\udc00x', 'a\udc00\ud800b']) {
        const res = await real.app.inject({
          method: 'POST',
          url: '/api/v2/login',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ access_token: token }),
        })
        expect(res.statusCode).toBe(422)
        expect(res.json().errors.access_token?.[0]).toMatch(/unpaired surrogate/)
      }
      expect(networkCalls).toEqual([])
    })

    it('refuses a token with a control character or a space with 422 before asking the network', async () => {
      networkCalls.length = 0
      for (const token of ['EAA\u0001x', 'EAA x', 'EAA\nx', 'EAA\u007fx', '\u00e9EAA']) {
        const res = await real.app.inject({
          method: 'POST',
          url: '/api/v2/login',
          payload: { access_token: token },
        })
        expect(res.statusCode, JSON.stringify(token)).toBe(422)
        expect(res.json().errors.access_token?.[0]).toMatch(/token/)
      }
      expect(networkCalls).toEqual([])
    })
  })
})

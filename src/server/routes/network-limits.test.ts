/**
 * Routes that call the network (the Graph with the app token, the payment provider) or store a list are
 * limited per user and minute, whatever address the calls come from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MarketingJobGraph } from '../bulk/marketing.ts'
import type { GraphApi } from '../graph/graph-api.ts'
import { type TestApp, fakeGraph, login, pageToken, startTestApp } from '../testing/harness.ts'

/** The fake network, counting the `debug_token` calls made with the app token. */
function countingGraph(): GraphApi & { debugTokenCalls: number } {
  const graph = {
    ...fakeGraph,
    debugTokenCalls: 0,
    async debugToken(token: string) {
      graph.debugTokenCalls++
      return fakeGraph.debugToken(token)
    },
  }
  return graph
}

/** Never reached by these tests: every call below is refused before a campaign is made. */
const noMarketingNetwork = {} as MarketingJobGraph

describe('the per-user limit of the routes that call the network', () => {
  it('lets 100 rapid page registrations make at most the limit of debug_token calls; the rest answer 429', async () => {
    const graph = countingGraph()
    const t = await startTestApp('pglite', { graph, rateLimits: { network: 10 } })
    try {
      const who = await login(t.app, '8100')
      const page = { id: '700', name: 'Page 700', access_token: pageToken('700', '8100') }
      const answers = await Promise.all(
        Array.from({ length: 100 }, () =>
          t.app.inject({ method: 'POST', url: '/api/v2/page', headers: who.auth, payload: page }),
        ),
      )
      const codes = answers.map((a) => a.statusCode)
      expect(codes.filter((c) => c === 200)).toHaveLength(10)
      expect(codes.filter((c) => c === 429)).toHaveLength(90)
      expect(graph.debugTokenCalls).toBe(10)
      const refused = answers.find((a) => a.statusCode === 429)!
      expect(refused.json()).toEqual({ message: 'Too many requests. Please wait a minute and try again.' })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    } finally {
      await t.close()
    }
  })

  it('counts each user by their account, not by their address', async () => {
    const t = await startTestApp('pglite', { rateLimits: { network: 2 } })
    try {
      const [a, b] = [await login(t.app, '8201'), await login(t.app, '8202')]
      const register = (who: typeof a, remoteAddress: string) =>
        t.app
          .inject({
            method: 'POST',
            url: '/api/v2/page',
            remoteAddress,
            headers: who.auth,
            payload: { id: '701', name: 'P', access_token: pageToken('701', who.user.facebook_id) },
          })
          .then((r) => r.statusCode)
      // One user from two addresses is one count; another user from the first address has a count of their own.
      expect([await register(a, '198.51.100.1'), await register(a, '198.51.100.2')]).toEqual([200, 200])
      expect(await register(a, '198.51.100.3')).toBe(429)
      expect(await register(b, '198.51.100.1')).toBe(406)
    } finally {
      await t.close()
    }
  })

  describe('covers every route that calls the network or stores a list', () => {
    let t: TestApp
    beforeAll(async () => {
      t = await startTestApp(
        'pglite',
        { rateLimits: { network: 2 }, marketingJobGraph: noMarketingNetwork },
        { SERVER_SENDER: 'true' },
      )
    })
    afterAll(() => t.close())
    let users = 8300

    it.each([
      ['POST', '/api/v2/page/extend-token'],
      ['POST', '/api/v2/pages/702/marketing/ad-accounts'],
      ['PUT', '/api/v2/pages/702/marketing'],
      ['POST', '/api/v2/pages/702/marketing/sync'],
      ['POST', '/api/v2/pages/702/marketing/optin-requests'],
      ['POST', '/api/v2/messages/1/marketing'],
      ['PUT', '/api/v2/messages/1/recipients'],
      ['POST', '/api/v2/user/subscriptions/checkout'],
      ['POST', '/api/v2/user/subscriptions/cancel-subscription'],
    ] as const)('%s %s', async (method, url) => {
      const who = await login(t.app, String(++users))
      const call = async () =>
        (await t.app.inject({ method, url, headers: who.auth, payload: {} })).statusCode
      const first = [await call(), await call()]
      expect(first).not.toContain(429)
      expect(await call()).toBe(429)
      // Signed out, the route still answers 401 first: the limit counts users, never anonymous callers.
      expect((await t.app.inject({ method, url, payload: {} })).statusCode).toBe(401)
    })
  })
})

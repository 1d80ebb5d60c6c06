import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Store } from '../db/store.ts'
import { onEveryStore, openTestStore } from '../testing/harness.ts'
import { databaseRateLimitStore } from './rate-limits.ts'

/** The short window of the expiry tests: wide enough for two requests on a busy machine. */
const WINDOW = 1500

/** A bare Fastify app limiting its routes with the database store, as the API does. */
async function limitedApp(db: Store): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db) })
  app.get('/two', { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } }, async () => 'ok')
  app.get('/three', { config: { rateLimit: { max: 3, timeWindow: '1 minute' } } }, async () => 'ok')
  app.get('/short', { config: { rateLimit: { max: 1, timeWindow: WINDOW } } }, async () => 'ok')
  app.get(
    '/renewed',
    { config: { rateLimit: { max: 1, timeWindow: WINDOW, continueExceeding: true } } },
    async () => 'ok',
  )
  app.get(
    '/backoff',
    { config: { rateLimit: { max: 1, timeWindow: WINDOW, exponentialBackoff: true } } },
    async () => 'ok',
  )
  return app
}

const codes = async (app: FastifyInstance, url: string, n: number, ip = '10.0.0.1') => {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push((await app.inject({ url, remoteAddress: ip })).statusCode)
  return out
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

onEveryStore('rate limits counted in the database', (kind) => {
  let db: Awaited<ReturnType<typeof openTestStore>>
  beforeAll(async () => {
    db = await openTestStore(kind)
  })
  afterAll(() => db.close())

  it('counts each route on its own, per client address, in the rate_limits table', async () => {
    const app = await limitedApp(db.store)
    expect(await codes(app, '/two', 3)).toEqual([200, 200, 429])
    expect(await codes(app, '/three', 4)).toEqual([200, 200, 200, 429])
    expect(await codes(app, '/two', 1, '10.0.0.2')).toEqual([200])
    const rows = await db.store.query<{ route: string; key: string; count: number }>(
      'SELECT route, key, count FROM rate_limits ORDER BY route, key',
    )
    expect(rows).toEqual([
      { route: 'GET/three-', key: '10.0.0.1', count: 4 },
      { route: 'GET/two-', key: '10.0.0.1', count: 3 },
      { route: 'GET/two-', key: '10.0.0.2', count: 1 },
    ])
    const limited = await app.inject({ url: '/two', remoteAddress: '10.0.0.1' })
    expect(limited.headers['x-ratelimit-limit']).toBe('2')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(50)
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60)
    await app.close()
  })

  it('shares the counts with another app on the same database', async () => {
    const [one, two] = [await limitedApp(db.store), await limitedApp(db.store)]
    expect(await codes(one, '/two', 1, '10.0.1.1')).toEqual([200])
    expect(await codes(two, '/two', 2, '10.0.1.1')).toEqual([200, 429])
    await Promise.all([one.close(), two.close()])
  })

  it('starts a new window once the old one has passed', async () => {
    const app = await limitedApp(db.store)
    expect(await codes(app, '/short', 2, '10.0.2.1')).toEqual([200, 429])
    await sleep(WINDOW + 200)
    expect(await codes(app, '/short', 2, '10.0.2.1')).toEqual([200, 429])
    await app.close()
  })

  it('renews the window of a client still sending past the limit with continueExceeding', async () => {
    const app = await limitedApp(db.store)
    expect(await codes(app, '/renewed', 2, '10.0.3.1')).toEqual([200, 429])
    await sleep(WINDOW * 0.6)
    expect(await codes(app, '/renewed', 1, '10.0.3.1')).toEqual([429])
    await sleep(WINDOW * 0.6)
    // Past the first window, but each refused hit restarted it.
    expect(await codes(app, '/renewed', 1, '10.0.3.1')).toEqual([429])
    await app.close()
  })

  it('doubles the wait for each hit past the limit with exponentialBackoff', async () => {
    const app = await limitedApp(db.store)
    const waits: string[] = []
    for (let i = 0; i < 4; i++) {
      const res = await app.inject({ url: '/backoff', remoteAddress: '10.0.5.1' })
      waits.push(`${res.statusCode}:${String(res.headers['x-ratelimit-reset'])}`)
    }
    // A window of 1.5 s, then 1.5, 3 and 6 s (rounded up to whole seconds).
    expect(waits).toEqual(['200:2', '429:2', '429:3', '429:6'])
    await app.close()
  })

  it('deletes expired counters', async () => {
    await db.store.query(
      "INSERT INTO rate_limits (route, key, count, expires_at) VALUES ('GET/two-', 'gone', 5, now() - interval '1 second')",
    )
    // A fresh store cleans up on its first hit.
    const app = await limitedApp(db.store)
    await codes(app, '/two', 1, '10.0.4.1')
    expect(await db.store.query("SELECT key FROM rate_limits WHERE key = 'gone'")).toEqual([])
    await app.close()
  })
})

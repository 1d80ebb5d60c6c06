/** The session and subscription reads kept for a moment must never outlive a revoke or a write they hide. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../app.ts'
import { READ_CACHE_MS } from '../db/read-cache.ts'
import {
  TEST_DATABASE_URL,
  type TestApp,
  type TestDatabase,
  createTestDatabase,
  fakeGraph,
  login,
  onEveryStore,
  setAllowance,
  startTestApp,
  testConfig,
} from '../testing/harness.ts'

type Auth = { authorization: string }
const user = (t: TestApp, auth: Auth) => t.app.inject({ url: '/api/v2/user', headers: auth })

onEveryStore('cached reads in one instance', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await startTestApp(kind)
  })
  afterAll(() => t.close())

  it('refuses a token at once after its logout, even right after a request that used it', async () => {
    const { auth } = await login(t.app, '91001')
    expect((await user(t, auth)).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'POST', url: '/api/v2/logout', headers: auth })).statusCode).toBe(
      200,
    )
    expect((await user(t, auth)).statusCode).toBe(401)
  })

  it('refuses another device at once after its session is revoked from this one', async () => {
    const phone = await login(t.app, '91002')
    const laptop = await login(t.app, '91002')
    expect((await user(t, laptop.auth)).statusCode).toBe(200)
    const list = (await t.app.inject({ url: '/api/v2/sessions', headers: phone.auth })).json() as {
      data: { id: string; current: boolean }[]
    }
    const other = list.data.find((s) => !s.current)!
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/v2/sessions/${other.id}`,
      headers: phone.auth,
    })
    expect(revoked.statusCode).toBe(200)
    expect((await user(t, laptop.auth)).statusCode).toBe(401)
    expect((await user(t, phone.auth)).statusCode).toBe(200)
  })

  it('answers GET /user with the allowance just written, not a copy read before it', async () => {
    const { auth } = await login(t.app, '91003')
    await setAllowance(t.app, '91003', { subscriptions_messages: 7, addons_messages: 0 })
    const before = (await user(t, auth)).json() as { data: { subscription: { available_messages: number } } }
    expect(before.data.subscription.available_messages).toBe(7)
    await setAllowance(t.app, '91003', { subscriptions_messages: 3 })
    const after = (await user(t, auth)).json() as { data: { subscription: { available_messages: number } } }
    expect(after.data.subscription.available_messages).toBe(3)
  })
})

describe.skipIf(!TEST_DATABASE_URL)('cached reads across instances (PostgreSQL)', () => {
  let db: TestDatabase
  const apps: Awaited<ReturnType<typeof buildApp>>[] = []
  beforeAll(async () => {
    db = await createTestDatabase(TEST_DATABASE_URL!)
    for (let i = 0; i < 2; i++)
      apps.push(await buildApp({ config: testConfig({ DATABASE_URL: db.url }), graph: fakeGraph }))
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    await db.drop()
  })
  afterEach(() => vi.useRealTimers())

  it('refuses a session revoked on another instance once the cached copy has lived its time', async () => {
    const [a, b] = apps as [(typeof apps)[0], (typeof apps)[0]]
    const { auth } = await login(a, '91004')
    expect((await b.inject({ url: '/api/v2/user', headers: auth })).statusCode).toBe(200)
    expect((await a.inject({ method: 'POST', url: '/api/v2/logout', headers: auth })).statusCode).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + READ_CACHE_MS })
    expect((await b.inject({ url: '/api/v2/user', headers: auth })).statusCode).toBe(401)
  })
})

/**
 * The event stream: signed in by bearer or by the session cookie, live events of the user's pages only,
 * catch-up from `since` / Last-Event-ID, a refetch after a gap, a heartbeat, and the presence reports.
 */
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../core/constants/limits.ts'
import { anyVisibleTab } from '../repo/presence.ts'
import { publishToPage, pruneOwnerEvents } from '../repo/owner-events.ts'
import { type LoggedIn, login, registerPage, startTestApp, type TestApp } from '../testing/harness.ts'
import { openSse, type SseReader } from '../testing/sse.ts'

const TAB = '6f1c2d3e-4a5b-4c6d-8e7f-901234567890'

const message = (pageId: string, mid: string) => ({
  pageId,
  customerId: '7001',
  mid,
  text: `hello ${mid}`,
  attachments: [],
  createdTime: new Date().toISOString(),
  fromPage: false,
})

describe('GET /api/v2/events', () => {
  let t: TestApp
  let base: string
  let owner: LoggedIn
  let other: LoggedIn
  const open: SseReader[] = []
  const stream = async (query = '', headers: Record<string, string> = {}) => {
    const s = await openSse(`${base}/api/v2/events${query}`, headers)
    open.push(s)
    return s
  }

  beforeEach(async () => {
    t = await startTestApp('pglite', { events: { heartbeatMs: 200 } })
    base = await t.app.listen({ host: '127.0.0.1', port: 0 })
    owner = await login(t.app, '5101')
    other = await login(t.app, '5102')
    await registerPage(t.app, owner, '900')
    await registerPage(t.app, other, '901')
  })
  afterEach(async () => {
    for (const s of open.splice(0)) s.close()
    await t.close()
  })

  const publish = (app: FastifyInstance, pageId: string, mid: string) =>
    app.store.transaction((tx) => publishToPage(tx, pageId, 'message', message(pageId, mid)))

  it('refuses a caller without a session', async () => {
    const res = await fetch(`${base}/api/v2/events`)
    expect(res.status).toBe(401)
  })

  it('validates its query', async () => {
    const res = await t.app.inject({ url: '/api/v2/events?since=abc', headers: owner.auth })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.since).toBeDefined()
  })

  it("streams the user's page events live, by cookie, with a heartbeat, and not other users' events", async () => {
    const s = await stream(`?tab=${TAB}`, { cookie: `${SESSION_COOKIE}=${encodeURIComponent(owner.token)}` })
    expect(s.status).toBe(200)
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/)
    await s.waitFor((f) => f.comment === 'connected')
    const [ready] = await s.waitFor((f) => f.event === 'ready')
    expect(ready!.data).toEqual({})
    await publish(t.app, '901', 'not-mine')
    await publish(t.app, '900', 'mine')
    const [got] = await s.waitFor((f) => f.event === 'message')
    expect(Number(got!.id)).toBeGreaterThan(Number(ready!.id))
    expect(got!.data).toMatchObject({ pageId: '900', mid: 'mine', customerId: '7001', fromPage: false })
    expect(Number(got!.id)).toBeGreaterThan(0)
    await s.waitFor((f) => f.comment === 'hb')
    expect(s.frames.filter((f) => f.event === 'message')).toHaveLength(1)
  })

  it('catches up from since and from Last-Event-ID, then goes on live', async () => {
    await publish(t.app, '900', 'a')
    const first = await stream('?since=0', owner.auth)
    const [a] = await first.waitFor((f) => f.event === 'message')
    await publish(t.app, '900', 'b')
    await publish(t.app, '900', 'c')
    const byHeader = await stream('', { ...owner.auth, 'last-event-id': a!.id! })
    const caught = await byHeader.waitFor((f) => f.event === 'message', 2)
    expect(caught.map((f) => (f.data as { mid: string }).mid)).toEqual(['b', 'c'])
    await publish(t.app, '900', 'd')
    await byHeader.waitFor((f) => f.event === 'message', 3)
    expect(
      byHeader.frames.filter((f) => f.event === 'message').map((f) => (f.data as { mid: string }).mid),
    ).toEqual(['b', 'c', 'd'])
  })

  it('sends one refetch when the events after since are no longer kept, and for an id it never gave', async () => {
    await publish(t.app, '900', 'old')
    await publish(t.app, '900', 'older')
    const [kept] = await t.app.store.query<{ n: number }>('SELECT count(*)::int AS n FROM owner_events')
    await t.app.store.query(`UPDATE owner_events SET created_at = now() - interval '2 days'`)
    expect(await pruneOwnerEvents(t.app.store)).toBe(kept!.n)
    await publish(t.app, '900', 'new')
    const s = await stream('?since=0', owner.auth)
    const [refetch] = await s.waitFor((f) => f.event === 'refetch')
    expect(refetch!.data).toEqual({ reason: 'gap' })
    expect(s.frames.some((f) => f.event === 'message')).toBe(false)
    await publish(t.app, '900', 'after')
    const [live] = await s.waitFor((f) => f.event === 'message')
    expect((live!.data as { mid: string }).mid).toBe('after')
    expect(Number(live!.id)).toBeGreaterThan(Number(refetch!.id))

    const future = await stream('?since=999999', owner.auth)
    await future.waitFor((f) => f.event === 'refetch')
  })

  it('records presence, and a closed stream is no longer a visible tab', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v2/presence',
      headers: owner.auth,
      payload: { tab: 'x', visible: 'yes' },
    })
    expect(bad.statusCode).toBe(422)
    expect(Object.keys(bad.json().errors).sort()).toEqual(['tab', 'visible'])
    const s = await stream(`?tab=${TAB}`, owner.auth)
    await s.waitFor((f) => f.comment === 'connected')
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v2/presence',
      headers: owner.auth,
      payload: { tab: TAB, visible: true },
    })
    expect(ok.statusCode).toBe(200)
    expect(await anyVisibleTab(t.app.store, owner.user.id)).toBe(true)
    expect(await anyVisibleTab(t.app.store, other.user.id)).toBe(false)
    await t.app.store.query(`UPDATE tab_presence SET seen_at = now() - interval '91 seconds'`)
    expect(await anyVisibleTab(t.app.store, owner.user.id)).toBe(false)
    await t.app.store.query(`UPDATE tab_presence SET seen_at = now()`)
    s.close()
    await expect.poll(() => anyVisibleTab(t.app.store, owner.user.id), { timeout: 10_000 }).toBe(false)
  })
})

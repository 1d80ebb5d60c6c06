/**
 * The send side of Web Push never connects to an address the subscription rules refuse: a stored endpoint
 * on loopback (or any host that is not a browser's push service) and a push service's host whose DNS
 * answers a loopback, private or link-local address get no connection. A TCP listener on loopback counts
 * what reaches it; nothing in these tests connects anywhere but loopback.
 */
import webpush from 'web-push'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type LoggedIn, type TestApp, login, startTestApp, testConfig } from '../testing/harness.ts'
import { type PushDeps, customerMessagePusher, notifyCustomerMessage, notifyUser } from './notify.ts'
import { loopbackListener } from '../testing/loopback-listener.ts'

const p256dh = 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM'
const auth = 'tBHItJI5svbpez7KI4CCXg'
const payload = { type: 'notice', title: 'T', body: 'B', url: '/', tag: 't', lang: 'en', dir: 'ltr' } as const

describe('pushes to endpoints the rules refuse', () => {
  let t: TestApp
  let dana: LoggedIn
  let listener: Awaited<ReturnType<typeof loopbackListener>>
  /** The hosts the injected resolver was asked for. */
  const asked: string[] = []
  /** What the fetch the pushes may use was asked for (it answers without connecting, loopback aside). */
  const fetched: string[] = []
  const answers: Record<string, string[]> = {
    'fcm.googleapis.com': ['127.0.0.1'],
    'updates.push.services.mozilla.com': ['203.0.113.7', '::1'],
    'web.push.apple.com': ['169.254.169.254'],
    'wns2-par02p.notify.windows.com': ['::ffff:10.0.0.1'],
  }
  const logs: string[] = []
  let deps: PushDeps
  /** The listener's connections before the test. */
  let before = 0

  beforeAll(async () => {
    listener = await loopbackListener()
    t = await startTestApp('pglite')
    dana = await login(t.app, '901')
    const loopbackNames = new Set(['127.0.0.1', 'localhost', '[::1]', '[::ffff:7f00:1]', '0.0.0.0'])
    deps = {
      store: t.app.store,
      vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@pagecast.test' },
      anyVisibleTab: async () => false,
      endpoints: testConfig(),
      resolve: async (host) => {
        asked.push(host)
        return answers[host] ?? []
      },
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input))
        fetched.push(url.origin)
        // A loopback endpoint goes through, so the listener sees it; nothing else leaves the process.
        if (loopbackNames.has(url.hostname)) return fetch(input, init)
        return new Response(null, { status: 201 })
      },
      log: { warn: (obj, msg) => void logs.push(`${msg} ${JSON.stringify(obj)}`), info: () => undefined },
    }
  })
  afterAll(async () => {
    await t.close()
    await listener.close()
  })
  beforeEach(async () => {
    asked.length = 0
    fetched.length = 0
    logs.length = 0
    before = listener.connections()
    await t.app.store.query('DELETE FROM push_subscriptions')
  })

  const store = async (endpoints: string[]) => {
    for (const endpoint of endpoints)
      await t.app.store.query(
        'INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth) VALUES ($1, $2, $3, $4)',
        [endpoint, dana.user.id, p256dh, auth],
      )
  }
  const stored = async () =>
    (await t.app.store.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions')).map(
      (r) => r.endpoint,
    )

  it('reads the subscriptions of a message’s owners at once and asks nothing more of those without one', async () => {
    await store(['https://fcm.googleapis.com/fcm/send/owner-with-a-device'])
    const statements: string[] = []
    const askedVisible: string[] = []
    const counted: PushDeps = {
      ...deps,
      store: {
        ...t.app.store,
        query: (sql, params) => (statements.push(sql), t.app.store.query(sql, params)),
      },
      // The one owner with a device has a tab open: nothing is pushed.
      anyVisibleTab: async (userId) => (askedVisible.push(userId), true),
    }
    const others = Array.from({ length: 19 }, (_, i) => String(990_000 + i))
    const outcome = await notifyCustomerMessage(counted, {
      userIds: [dana.user.id, ...others],
      pageId: '4711',
      pageName: 'Page',
      customerId: '1',
      mid: 'm_owners',
      text: 'hi',
      createdTime: new Date().toISOString(),
    })
    expect(outcome).toEqual({ sent: 0, removed: 0, failed: 0 })
    expect(askedVisible).toEqual([dana.user.id])
    expect(statements.length).toBeLessThanOrEqual(2)
    expect(fetched).toEqual([])
  })

  it('pushes the messages handed over in one turn together: one read of the owners’ devices for all', async () => {
    await store(['https://fcm.googleapis.com/fcm/send/owner-with-a-device'])
    const statements: string[] = []
    const askedVisible: string[] = []
    const push = customerMessagePusher({
      ...deps,
      store: {
        ...t.app.store,
        query: (sql, params) => (statements.push(sql), t.app.store.query(sql, params)),
      },
      anyVisibleTab: async (userId) => (askedVisible.push(userId), true),
    })
    const message = (i: number, userIds: string[]) => ({
      userIds,
      pageId: '4711',
      pageName: 'Page',
      customerId: String(i),
      mid: `m_turn_${i}`,
      text: 'hi',
      createdTime: new Date().toISOString(),
    })
    // A processed batch: 30 messages, the owner with a device among the owners of three of them.
    for (let i = 0; i < 30; i++) push(message(i, i % 10 === 0 ? [dana.user.id, '990001'] : ['990001']))
    expect(statements).toEqual([])
    await vi.waitFor(() => expect(askedVisible).toHaveLength(3))
    await new Promise((r) => setTimeout(r, 50))
    // The devices of all the owners, then whether the one with a device still has the page.
    expect(statements).toHaveLength(2)
    expect(fetched).toEqual([])
  })

  it('sends nothing to a stored endpoint on loopback or off the push services, and forgets it', async () => {
    const p = listener.port
    const hostile = [
      `https://127.0.0.1:${p}/push`,
      `https://localhost:${p}/push`,
      `https://[::1]:${p}/push`,
      `https://[::ffff:127.0.0.1]:${p}/push`,
      `https://127.1:${p}/push`,
      `https://2130706433:${p}/push`,
      `https://0.0.0.0:${p}/push`,
      `http://127.0.0.1:${p}/sandbox/push/x`,
      `http://localhost:${p}/api/v2/push/key`,
    ]
    await store(hostile)
    const outcome = await notifyUser(deps, dana.user.id, payload)
    expect(listener.connections() - before).toBe(0)
    expect(fetched).toEqual([])
    expect(outcome).toEqual({ sent: 0, removed: hostile.length, failed: 0 })
    expect(await stored()).toEqual([])
    expect(logs.filter((l) => l.startsWith('push subscription refused'))).toHaveLength(hostile.length)
    // The log names the origin only: the rest of an endpoint is a capability.
    expect(logs.join('\n')).not.toContain('/push"')
  })

  it('sends nothing to a push service whose DNS answers a loopback, private or link-local address', async () => {
    const rebound = [
      'https://fcm.googleapis.com/fcm/send/rebound',
      'https://updates.push.services.mozilla.com/wpush/v2/rebound',
      'https://web.push.apple.com/rebound',
      'https://wns2-par02p.notify.windows.com/w/?token=rebound',
    ]
    await store(rebound)
    const outcome = await notifyUser(deps, dana.user.id, payload)
    expect(listener.connections() - before).toBe(0)
    expect(fetched).toEqual([])
    expect(asked.sort()).toEqual(Object.keys(answers).sort())
    expect(outcome).toEqual({ sent: 0, removed: 0, failed: rebound.length })
    // The host may answer otherwise later: the subscription stays.
    expect((await stored()).sort()).toEqual([...rebound].sort())
  })

  it('still pushes to the sandbox’s push service on the app’s own origin while the sandbox is on', async () => {
    await store(['http://pagecast.test/sandbox/push/dana'])
    expect(await notifyUser(deps, dana.user.id, payload)).toEqual({ sent: 1, removed: 0, failed: 0 })
    expect(fetched).toEqual(['http://pagecast.test'])
    const off = { ...deps, endpoints: testConfig({ SANDBOX: 'false' }) }
    expect(await notifyUser(off, dana.user.id, payload)).toEqual({ sent: 0, removed: 1, failed: 0 })
    expect(fetched).toHaveLength(1)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LoggedIn, type TestApp, login, onEveryStore, startTestApp } from '../testing/harness.ts'

/** A browser's subscription: a P-256 point (65 bytes, 0x04 first) and a 16-byte secret, base64url. */
const p256dh = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url')
const authSecret = Buffer.alloc(16, 9).toString('base64url')
const subscription = (endpoint: string) => ({ endpoint, keys: { p256dh, auth: authSecret } })

async function endpoints(t: TestApp, facebookId: string): Promise<string[]> {
  const rows = await t.app.store.query<{ endpoint: string }>(
    `SELECT endpoint FROM push_subscriptions WHERE user_id = (SELECT id FROM users WHERE facebook_id = $1) ORDER BY endpoint`,
    [facebookId],
  )
  return rows.map((r) => r.endpoint)
}

onEveryStore('push routes', (kind) => {
  let t: TestApp
  let dana: LoggedIn
  let sam: LoggedIn
  beforeAll(async () => {
    t = await startTestApp(kind)
    dana = await login(t.app, '501')
    sam = await login(t.app, '502')
  })
  afterAll(() => t.close())

  const put = (who: LoggedIn, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v2/push/subscription',
      headers: who.auth,
      payload: payload as object,
    })

  it('answers 401 without a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/v2/push/key'],
      ['PUT', '/api/v2/push/subscription'],
      ['DELETE', '/api/v2/push/subscription'],
      ['GET', '/api/v2/push/settings'],
      ['PUT', '/api/v2/push/settings'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: {} })
      expect(res.statusCode, `${method} ${url}`).toBe(401)
    }
  })

  it('gives the VAPID public key', async () => {
    const res = await t.app.inject({ url: '/api/v2/push/key', headers: dana.auth })
    expect(res.statusCode).toBe(200)
    const key = Buffer.from((res.json() as { publicKey: string }).publicKey, 'base64url')
    expect(key.length).toBe(65)
    expect(key[0]).toBe(4)
  })

  it('refuses malformed subscriptions with 422 and the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ keys: { p256dh, auth: authSecret } }, 'endpoint'],
      [subscription('http://push.example.com/x'), 'endpoint'],
      [subscription('not a url'), 'endpoint'],
      [subscription('https://user:pw@push.example.com/x'), 'endpoint'],
      // The sandbox's push service on another origin is no exception.
      [subscription('http://elsewhere.test/sandbox/push/a'), 'endpoint'],
      [{ endpoint: 'https://fcm.googleapis.com/fcm/send/x' }, 'keys'],
      [
        { endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: { p256dh: authSecret, auth: authSecret } },
        'keys.p256dh',
      ],
      [{ endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: { p256dh, auth: p256dh } }, 'keys.auth'],
      [
        {
          endpoint: 'https://fcm.googleapis.com/fcm/send/x',
          keys: { p256dh: 'not base64!', auth: authSecret },
        },
        'keys.p256dh',
      ],
      [{ ...subscription('https://fcm.googleapis.com/fcm/send/x'), locale: 'xx' }, 'locale'],
      [{ ...subscription('https://fcm.googleapis.com/fcm/send/x'), extra: 1 }, 'extra'],
    ]
    for (const [payload, field] of cases) {
      const res = await put(dana, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(422)
      expect(Object.keys((res.json() as { errors: Record<string, string[]> }).errors)).toContain(field)
    }
    expect(await endpoints(t, '501')).toEqual([])
  })

  it('accepts the push services browsers hand out (Chrome, Firefox, Edge, Safari)', async () => {
    const device = await login(t.app, '503')
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/eEsw5ryoAzo:APA91bHC',
      'https://fcm.googleapis.com/wp/dGVzdA',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD',
      'https://web.push.apple.com/QGuQyavXutnMH',
    ]) {
      const res = await put(device, subscription(endpoint))
      expect(res.statusCode, endpoint).toBe(200)
    }
  })

  it('refuses every endpoint that is not a browser push service with 422 and the field', async () => {
    const refused = [
      'https://127.0.0.1:9443/push',
      'https://127.0.0.1/push',
      'https://127.1/push',
      'https://2130706433/push',
      'https://0x7f.0.0.1/push',
      'https://0.0.0.0/push',
      'https://localhost/push',
      'https://localhost:9443/push',
      'https://[::1]/push',
      'https://[::ffff:127.0.0.1]/push',
      'https://[::]/push',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00:ec2::254]/latest/meta-data/',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://10.0.0.8/push',
      'https://172.16.4.2/push',
      'https://192.168.1.1/push',
      'https://100.64.0.1/push',
      'https://[fd12:3456::1]/push',
      'https://[fe80::1]/push',
      'https://224.0.0.1/push',
      // The API itself, over https and over http.
      'https://pagecast.test/api/v2/push/key',
      'http://pagecast.test/api/v2/push/key',
      // Look-alikes of the push services.
      'https://push.example.com/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://fcm.googleapis.com:9443/fcm/send/x',
      'https://fcm.googleapis.com./fcm/send/x',
      'https://fcm.googleapis.com.evil.test/fcm/send/x',
      'https://evil.test/fcm.googleapis.com/x',
      'https://fcm.googleapis.com@127.0.0.1/x',
      'https://notify.windows.com/w/?token=x',
      'https://evilnotify.windows.com/w/?token=x',
      'https://a.b.notify.windows.com/w/?token=x',
      'https://push.services.mozilla.com.evil.test/wpush/v2/x',
      'https://apple.com/x',
      'wss://fcm.googleapis.com/fcm/send/x',
      // The sandbox's push service only on the app's own origin.
      'http://127.0.0.1:8080/sandbox/push/x',
      'https://pagecast.test.evil.test/sandbox/push/x',
    ]
    const device = await login(t.app, '503')
    for (const endpoint of refused) {
      const res = await put(device, subscription(endpoint))
      expect(res.statusCode, endpoint).toBe(422)
      expect(Object.keys((res.json() as { errors: Record<string, string[]> }).errors), endpoint).toEqual([
        'endpoint',
      ])
    }
    const stored = await endpoints(t, '503')
    expect(stored.filter((e) => refused.includes(e))).toEqual([])
  })

  it('keeps one subscription per device: a new endpoint from the same session replaces the old one', async () => {
    expect((await put(dana, subscription('https://fcm.googleapis.com/fcm/send/dana-1'))).statusCode).toBe(200)
    expect((await put(dana, subscription('https://fcm.googleapis.com/fcm/send/dana-1'))).statusCode).toBe(200)
    expect(await endpoints(t, '501')).toEqual(['https://fcm.googleapis.com/fcm/send/dana-1'])
    expect((await put(dana, subscription('https://fcm.googleapis.com/fcm/send/dana-2'))).statusCode).toBe(200)
    expect(await endpoints(t, '501')).toEqual(['https://fcm.googleapis.com/fcm/send/dana-2'])
    // A second device (another session) has its own.
    const phone = await login(t.app, '501')
    expect(
      (await put(phone, { ...subscription('https://fcm.googleapis.com/fcm/send/dana-phone'), locale: 'km' }))
        .statusCode,
    ).toBe(200)
    expect(await endpoints(t, '501')).toEqual([
      'https://fcm.googleapis.com/fcm/send/dana-2',
      'https://fcm.googleapis.com/fcm/send/dana-phone',
    ])
    const [row] = await t.app.store.query<{ locale: string }>(
      "SELECT locale FROM push_subscriptions WHERE endpoint = 'https://fcm.googleapis.com/fcm/send/dana-phone'",
    )
    expect(row?.locale).toBe('km')
    // Signing out ends the device's notifications.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v2/logout', headers: phone.auth })).statusCode,
    ).toBe(200)
    expect(await endpoints(t, '501')).toEqual(['https://fcm.googleapis.com/fcm/send/dana-2'])
    // The app's refresh at the next sign-in does not bring it back: turning notifications on again does.
    const again = await login(t.app, '501')
    const refreshed = await put(again, {
      ...subscription('https://fcm.googleapis.com/fcm/send/dana-phone'),
      refresh: true,
    })
    expect(refreshed.json()).toEqual({ ok: true, stored: false })
    expect(await endpoints(t, '501')).toEqual(['https://fcm.googleapis.com/fcm/send/dana-2'])
    const known = await put(dana, {
      ...subscription('https://fcm.googleapis.com/fcm/send/dana-2'),
      locale: 'ur',
      refresh: true,
    })
    expect(known.json()).toEqual({ ok: true, stored: true })
  })

  it('refuses an endpoint bound to another account: it is not moved, its owner keeps and removes it', async () => {
    const shared = 'https://web.push.apple.com/QGuQyavXutnMH-shared'
    expect((await put(dana, subscription(shared))).statusCode).toBe(200)
    const taken = await put(sam, subscription(shared))
    expect(taken.statusCode).toBe(409)
    expect(taken.json()).toMatchObject({ code: 'endpoint_taken' })
    expect(await endpoints(t, '502')).not.toContain(shared)
    expect(await endpoints(t, '501')).toContain(shared)
    // Neither does the app's refresh at sign-in take it.
    expect((await put(sam, { ...subscription(shared), refresh: true })).json()).toEqual({
      ok: true,
      stored: false,
    })
    expect(await endpoints(t, '502')).not.toContain(shared)
    // The owner refreshes it as before, and removes it.
    expect((await put(dana, { ...subscription(shared), locale: 'bn' })).statusCode).toBe(200)
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/v2/push/subscription',
      headers: dana.auth,
      payload: { endpoint: shared },
    })
    expect(removed.json()).toEqual({ removed: true })
    // Once the owner no longer holds it (signed out, or turned notifications off) another account may.
    expect((await put(sam, subscription(shared))).statusCode).toBe(200)
    expect(await endpoints(t, '502')).toContain(shared)
  })

  it('keeps the device’s earlier endpoint when the new one is refused as another account’s', async () => {
    const own = 'https://wns2-par02p.notify.windows.com/w/?token=sam-own'
    const others = 'https://wns2-par02p.notify.windows.com/w/?token=dana-own'
    expect((await put(dana, subscription(others))).statusCode).toBe(200)
    const device = await login(t.app, '502')
    expect((await put(device, subscription(own))).statusCode).toBe(200)
    expect((await put(device, subscription(others))).statusCode).toBe(409)
    expect(await endpoints(t, '502')).toContain(own)
    expect(await endpoints(t, '501')).toContain(others)
  })

  it('deletes only the caller’s own subscription', async () => {
    await put(sam, subscription('https://updates.push.services.mozilla.com/wpush/v2/sam'))
    const del = (who: LoggedIn, payload: unknown) =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/v2/push/subscription',
        headers: who.auth,
        payload: payload as object,
      })
    expect(
      (await del(dana, { endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/sam' })).json(),
    ).toEqual({ removed: false })
    expect(await endpoints(t, '502')).toContain('https://updates.push.services.mozilla.com/wpush/v2/sam')
    expect((await del(sam, {})).statusCode).toBe(422)
    expect(
      (await del(sam, { endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/sam' })).json(),
    ).toEqual({ removed: true })
    expect(await endpoints(t, '502')).not.toContain('https://updates.push.services.mozilla.com/wpush/v2/sam')
  })

  it('stores the hide-text setting per user', async () => {
    const get = async (who: LoggedIn) =>
      (await t.app.inject({ url: '/api/v2/push/settings', headers: who.auth })).json() as {
        hideText: boolean
      }
    expect(await get(dana)).toEqual({ hideText: false })
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/push/settings',
      headers: dana.auth,
      payload: { hideText: true },
    })
    expect(set.statusCode).toBe(200)
    expect(await get(dana)).toEqual({ hideText: true })
    expect(await get(sam)).toEqual({ hideText: false })
    for (const payload of [{}, { hideText: 'yes' }, { hideText: true, other: 1 }]) {
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/v2/push/settings',
        headers: dana.auth,
        payload,
      })
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422)
    }
  })
})

describe('the sandbox push endpoint', () => {
  let on: TestApp
  let off: TestApp
  beforeAll(async () => {
    on = await startTestApp('pglite')
    off = await startTestApp('pglite', {}, { SANDBOX: 'false' })
  })
  afterAll(async () => {
    await on.close()
    await off.close()
  })

  it('is accepted over http on the app’s own origin only while the sandbox is on', async () => {
    const endpoint = 'http://pagecast.test/sandbox/push/device-1'
    const withSandbox = await login(on.app, '601')
    const res = await on.app.inject({
      method: 'PUT',
      url: '/api/v2/push/subscription',
      headers: withSandbox.auth,
      payload: subscription(endpoint),
    })
    expect(res.statusCode).toBe(200)
    const withoutSandbox = await login(off.app, '601')
    const refused = await off.app.inject({
      method: 'PUT',
      url: '/api/v2/push/subscription',
      headers: withoutSandbox.auth,
      payload: subscription(endpoint),
    })
    expect(refused.statusCode).toBe(422)
  })
})

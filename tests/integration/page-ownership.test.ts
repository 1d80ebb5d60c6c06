/**
 * Only a page's manager can register it, bind its trial or store messages for it: the API asks the network
 * (the sandbox, routed in-process) about the page token with the app token before anything is written.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../../src/core/constants/limits.ts'
import { sandboxPlugin } from '../../src/sandbox/app.ts'
import { demoPageIds } from '../../src/sandbox/state/demo.ts'
import { buildApp } from '../../src/server/app.ts'
import { loadConfig } from '../../src/server/config.ts'
import { createMessage, setAllowance } from '../../src/server/testing/harness.ts'
import { inProcessFetch } from './in-process-fetch.ts'

const SEED = 20260427
type Who = 'demo' | 'second' | 'partner'

describe('page ownership, verified with the network', () => {
  let app: FastifyInstance
  const ids = demoPageIds(SEED)

  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      STATIC_DIR: '/nonexistent',
      PUBLIC_URL: 'http://pagecast.test',
    })
    const sandbox = sandboxPlugin({
      policy: 'current',
      seed: SEED,
      appId: config.FB_APP_ID,
      appSecret: config.FB_APP_SECRET,
      publicUrl: config.publicUrl,
      liveMs: 0,
    })
    app = await buildApp({
      config,
      mounts: [{ prefix: '/sandbox', plugin: sandbox }],
      demo: { bannedPageIds: [ids.banned], trialUsedPageIds: [ids.trialUsed] },
      fetch: inProcessFetch(() => app),
    })
  })
  afterAll(() => app.close())

  const userToken = async (user: Who, extra: Record<string, unknown> = {}) =>
    (
      await app.inject({
        method: 'POST',
        url: '/sandbox/token',
        payload: { user, scopes: [...REQUIRED_PERMISSIONS], ...extra },
      })
    ).json().access_token as string
  const pageAccount = async (token: string, pageId: string) => {
    const res = await app.inject({
      url: `/sandbox/graph/v25.0/me/accounts?fields=id,name,access_token,picture&access_token=${token}`,
    })
    const account = (res.json() as { data: { id: string; name: string; access_token: string }[] }).data.find(
      (a) => a.id === pageId,
    )
    if (!account) throw new Error(`no account ${pageId}`)
    return account
  }
  const login = async (user: Who) => {
    const network = await userToken(user)
    const res = await app.inject({ method: 'POST', url: '/api/v2/login', payload: { access_token: network } })
    expect(res.statusCode).toBe(200)
    const body = res.json() as { data: { token: string; user: { id: string; facebook_id: string } } }
    return { network, auth: { authorization: `Bearer ${body.data.token}` }, user: body.data.user }
  }
  const register = (auth: Record<string, string>, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/v2/page', headers: auth, payload })
  const pageRow = async (id: string) =>
    (
      await app.store.query<{ name: string; picture: string | null; trial_user_id: string | null }>(
        'SELECT name, picture, trial_user_id::text FROM pages WHERE id = $1',
        [id],
      )
    )[0]
  const bound = async (userId: string, pageId: string) =>
    (await app.store.query('SELECT 1 FROM user_pages WHERE user_id = $1 AND page_id = $2', [userId, pageId]))
      .length > 0

  let demo: Awaited<ReturnType<typeof login>>
  let second: Awaited<ReturnType<typeof login>>
  let demoPageToken: string
  beforeAll(async () => {
    demo = await login('demo')
    second = await login('second')
    demoPageToken = (await pageAccount(demo.network, ids.small)).access_token
    const res = await register(demo.auth, {
      id: ids.small,
      name: 'Kanha Bakery',
      picture: 'https://cdn.example/kanha.jpg',
      access_token: demoPageToken,
    })
    expect(res.statusCode).toBe(200)
  })

  it("refuses another user's claim on a page, leaving its name, picture and trial binding untouched", async () => {
    const own = (await pageAccount(second.network, ids.second)).access_token
    const attempts = [
      own, // a page token, but of another page
      demoPageToken, // the right page, but a token issued to somebody else
    ]
    for (const token of attempts) {
      const res = await register(second.auth, {
        id: ids.small,
        name: 'Taken over',
        picture: 'https://evil.example/p.jpg',
        access_token: token,
      })
      expect(res.statusCode).toBe(422)
      expect(res.json().errors.access_token[0]).toBeTruthy()
    }
    expect(await pageRow(ids.small)).toEqual({
      name: 'Kanha Bakery',
      picture: 'https://cdn.example/kanha.jpg',
      trial_user_id: demo.user.id,
    })
    expect(await bound(second.user.id, ids.small)).toBe(false)
    const again = await register(demo.auth, {
      id: ids.small,
      name: 'Kanha Bakery',
      access_token: demoPageToken,
    })
    expect(again.statusCode).toBe(200)
  })

  it('registers the page of the second user with a token of its own page', async () => {
    const account = await pageAccount(second.network, ids.second)
    const res = await register(second.auth, {
      id: ids.second,
      name: account.name,
      access_token: account.access_token,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().data.subscription).toMatchObject({ access_type: 'trial' })
    expect(await bound(second.user.id, ids.second)).toBe(true)
    expect((await createMessage(app, second, ids.second)).statusCode).toBe(201)
  })

  it("binds a second person who manages the page with their own token, once they subscribe: the trial was the owner's", async () => {
    const partner = await login('partner')
    expect(partner.user.facebook_id).not.toBe(demo.user.facebook_id)
    const token = (await pageAccount(partner.network, ids.small)).access_token
    expect(token).not.toBe(demoPageToken)
    const page = { id: ids.small, name: 'Kanha Bakery', access_token: token }
    // Their own account has a trial of its own, but the page's trial was used by its owner.
    const onTrial = await register(partner.auth, page)
    expect(onTrial.statusCode).toBe(406)
    expect(onTrial.json().code).toBe('trial_used')
    expect(await bound(partner.user.id, ids.small)).toBe(false)
    await setAllowance(app, partner.user.facebook_id, { access_type: 'paid', subscriptions_messages: 100 })
    const paid = await register(partner.auth, page)
    expect(paid.statusCode).toBe(200)
    expect(await bound(partner.user.id, ids.small)).toBe(true)
    expect(await bound(demo.user.id, ids.small)).toBe(true)
    expect((await pageRow(ids.small))?.trial_user_id).toBe(demo.user.id)
    expect((await createMessage(app, partner, ids.small)).statusCode).toBe(201)
  })

  it('refuses to store a message for a page the caller has not registered', async () => {
    const res = await createMessage(app, second, ids.small)
    expect(res.statusCode).toBe(403)
    expect(res.json().message).toMatch(/page/)
    expect((await createMessage(app, demo, ids.small)).statusCode).toBe(201)
    const extend = await app.inject({
      method: 'POST',
      url: '/api/v2/page/extend-token',
      headers: second.auth,
      payload: { access_token: demoPageToken, page_id: ids.small },
    })
    expect(extend.statusCode).toBe(403)
  })

  it('refuses a user token in place of the page token', async () => {
    const res = await register(demo.auth, {
      id: ids.large,
      name: 'Sunrise Market',
      access_token: demo.network,
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.access_token[0]).toMatch(/page token/)
    expect(await pageRow(ids.large)).toBeUndefined()
  })

  it('refuses a page token another app was given', async () => {
    const foreign = await userToken('demo', { app_id: 'another-app' })
    const token = (await pageAccount(foreign, ids.large)).access_token
    const res = await register(demo.auth, { id: ids.large, name: 'Sunrise Market', access_token: token })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.access_token[0]).toMatch(/another app/)
    expect(await pageRow(ids.large)).toBeUndefined()
  })

  it('refuses a token the network does not know', async () => {
    const res = await register(demo.auth, {
      id: ids.large,
      name: 'Sunrise Market',
      access_token: 'EAAmadeup',
    })
    expect(res.statusCode).toBe(422)
    expect(res.json().errors.access_token[0]).toMatch(/refused/)
  })
})

/**
 * The network's deauthorize callback (`POST /webhooks/deauthorize`, a `signed_request` signed with the app
 * secret): the user removed the app, so every page binding of theirs is revoked at once; a forged one changes
 * nothing. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, expect, it } from 'vitest'
import {
  createMessage,
  type LoggedIn,
  login,
  onEveryStore,
  registerPage,
  setAllowance,
  startTestApp,
  testConfig,
  type TestApp,
} from '../testing/harness.ts'

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url')

function signedRequest(userId: string, secret = testConfig().FB_APP_SECRET): string {
  const payload = b64url(
    JSON.stringify({ algorithm: 'HMAC-SHA256', issued_at: Math.floor(Date.now() / 1000), user_id: userId }),
  )
  return `${b64url(createHmac('sha256', secret).update(payload).digest())}.${payload}`
}

onEveryStore('the deauthorize callback', (kind) => {
  let t: TestApp
  let owner: LoggedIn
  let other: LoggedIn

  beforeEach(async () => {
    t = await startTestApp(kind)
    owner = await login(t.app, '5301')
    other = await login(t.app, '5302')
    await registerPage(t.app, owner, '930')
    await registerPage(t.app, owner, '931')
    // A paid user may open a page another user's trial took.
    await setAllowance(t.app, '5302', { access_type: 'paid', subscriptions_messages: 10 })
    await registerPage(t.app, other, '930')
  })
  afterEach(() => t.close())

  const deauthorize = (signed: string) =>
    t.app.inject({
      method: 'POST',
      url: '/webhooks/deauthorize',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ signed_request: signed }).toString(),
    })
  it("revokes every page binding of the user who removed the app, and nobody else's", async () => {
    expect((await deauthorize(signedRequest('5301'))).statusCode).toBe(200)
    for (const pageId of ['930', '931']) {
      const refused = await createMessage(t.app, owner, pageId)
      expect(refused.statusCode).toBe(403)
      expect(refused.json().code).toBe('page_access_revoked')
    }
    expect((await createMessage(t.app, other, '930')).statusCode).toBe(201)
    // The app given back and the page opened again: bound anew.
    await registerPage(t.app, owner, '930')
    expect((await createMessage(t.app, owner, '930')).statusCode).toBe(201)
  })

  it("tells the owner's home which of its pages were revoked, and only the owner", async () => {
    const standing = (who: LoggedIn, ids: string) =>
      t.app.inject({ method: 'GET', url: `/api/v2/page/standing?ids=${ids}`, headers: who.auth })
    expect((await standing(owner, '930,931,932')).json()).toEqual({ data: {} })
    expect((await deauthorize(signedRequest('5301'))).statusCode).toBe(200)
    expect((await standing(owner, '930,931,932')).json()).toEqual({
      data: { '930': 'revoked', '931': 'revoked' },
    })
    expect((await standing(other, '930,931')).json()).toEqual({ data: {} })
    await registerPage(t.app, owner, '930')
    expect((await standing(owner, '930,931')).json()).toEqual({ data: { '931': 'revoked' } })
  })

  it('refuses a request not signed with the app secret, and one without a user', async () => {
    for (const signed of [signedRequest('5301', 'not-the-secret'), 'garbage', '']) {
      expect((await deauthorize(signed)).statusCode).toBe(403)
    }
    expect((await createMessage(t.app, owner, '930')).statusCode).toBe(201)
  })
})

/** The sandbox's debug_token answers as the network does (tests/fixtures/graph/debug-token-*.json). */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type TestSandbox, VERSION } from './test-support.ts'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(async () => {
  await sb.app.close()
})

const recorded = (name: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../tests/fixtures/graph/${name}.json`, import.meta.url), 'utf8')) as {
      body: { data: Record<string, unknown> }
    }
  ).body.data

const APP_TOKEN = 'test-app|test-secret'
const debug = async (input: string, appToken = APP_TOKEN) => {
  const res = await fetch(
    `${sb.url}/graph/${VERSION}/debug_token?${new URLSearchParams({ input_token: input, access_token: appToken })}`,
  )
  return {
    status: res.status,
    body: (await res.json()) as { data: Record<string, unknown>; error?: unknown },
  }
}

/** The sandbox names only fields the network names, and every field the API relies on. */
function sameShape(answer: Record<string, unknown>, fixture: Record<string, unknown>, needed: string[]) {
  for (const key of Object.keys(answer)) expect(Object.keys(fixture)).toContain(key)
  for (const key of needed) {
    expect(answer).toHaveProperty(key)
    expect(typeof answer[key]).toBe(typeof fixture[key])
  }
}

describe('debug_token', () => {
  it('describes a page token: its app, page and the user it was issued to', async () => {
    const token = await sb.pageToken(sb.ids.small)
    const { body } = await debug(token)
    sameShape(body.data, recorded('debug-token-page'), [
      'app_id',
      'type',
      'application',
      'expires_at',
      'is_valid',
      'scopes',
      'user_id',
      'profile_id',
    ])
    expect(body.data).toMatchObject({
      app_id: 'test-app',
      type: 'PAGE',
      is_valid: true,
      profile_id: sb.ids.small,
    })
    const me = (await sb.post('/token', { user: 'demo' })) as { user_id: string }
    expect(body.data.user_id).toBe(me.user_id)
  })

  it('names the person a page token was issued to when two people manage the page', async () => {
    const partner = (await sb.post('/token', { user: 'partner' })) as {
      access_token: string
      user_id: string
    }
    const owner = (await sb.post('/token', { user: 'demo' })) as { access_token: string; user_id: string }
    const ofPartner = await debug(await sb.pageToken(sb.ids.small, partner.access_token))
    const ofOwner = await debug(await sb.pageToken(sb.ids.small, owner.access_token))
    expect(ofPartner.body.data).toMatchObject({ type: 'PAGE', is_valid: true, profile_id: sb.ids.small })
    expect(ofPartner.body.data.user_id).toBe(partner.user_id)
    expect(ofOwner.body.data.user_id).toBe(owner.user_id)
    expect(partner.user_id).not.toBe(owner.user_id)
  })

  it('describes a user token without a profile_id', async () => {
    const { body } = await debug(await sb.userToken('second'))
    sameShape(body.data, recorded('debug-token-user'), ['app_id', 'type', 'is_valid', 'scopes', 'user_id'])
    expect(body.data).toMatchObject({ type: 'USER', is_valid: true })
    expect(body.data).not.toHaveProperty('profile_id')
  })

  it('answers a token it cannot read as invalid, in the network words', async () => {
    const { status, body } = await debug('EAAmadeup')
    expect(status).toBe(200)
    expect(body.data).toEqual(recorded('debug-token-unreadable'))
  })

  it('answers a page token whose user lost the role as invalid, with no expiry subcode', async () => {
    const token = await sb.pageToken(sb.ids.small)
    await sb.post('/tokens/expire', { page_id: sb.ids.small, revoke: true })
    try {
      const { body } = await debug(token)
      expect(body.data).toMatchObject({ is_valid: false, profile_id: sb.ids.small })
      expect(body.data.error).toEqual({
        code: 190,
        message: expect.stringMatching(/administrator of the page/),
      })
    } finally {
      await sb.post('/tokens/expire', { page_id: sb.ids.small, revoke: false })
    }
  })

  it('reports the app a token of another app was issued to', async () => {
    const foreign = (
      (await sb.post('/token', { user: 'demo', app_id: 'another-app' })) as { access_token: string }
    ).access_token
    expect((await debug(foreign)).body.data).toMatchObject({ app_id: 'another-app', is_valid: true })
  })

  it('is answered only to the app token: a user token or a wrong secret gets error 190', async () => {
    const user = await sb.userToken()
    for (const caller of [user, 'test-app|wrong-secret']) {
      const res = await debug(user, caller)
      expect(res.status).toBe(400)
      expect(res.body.error).toMatchObject({ code: 190, type: 'OAuthException' })
    }
  })
})

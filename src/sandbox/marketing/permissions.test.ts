import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../../core/constants/limits.ts'
import { SESSION_COOKIE } from '../dialog/routes.ts'
import { MARKETING_SCOPES, startMarketingSandbox, type MarketingSandbox } from './test-support.ts'

let sb: MarketingSandbox
beforeAll(async () => {
  sb = await startMarketingSandbox()
})
afterAll(async () => {
  await sb.app.close()
})

interface Answer {
  authResponse: { accessToken: string; grantedScopes: string }
}

async function grant(body: object, cookie?: string): Promise<{ answer: Answer; cookie: string }> {
  const res = await fetch(`${sb.url}/dialog/grant`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ client_id: sb.options.appId, user: 'demo', ...body }),
  })
  const set = res.headers.get('set-cookie') ?? ''
  return { answer: (await res.json()) as Answer, cookie: set.split(';')[0]! }
}

const granted = async (token: string) =>
  (await sb.client.permissions(token)).filter((p) => p.status === 'granted').map((p) => p.permission)

describe('the permission step of marketing messages', () => {
  it('lists the marketing scopes in the login dialog when they are asked for', async () => {
    const html = await (
      await fetch(
        `${sb.url}/dialog/oauth?client_id=${sb.options.appId}&scope=ads_management,paid_marketing_messages&auth_type=rerequest`,
      )
    ).text()
    expect(html).toContain('value="ads_management"')
    expect(html).toContain('value="paid_marketing_messages"')
  })

  it('adds the scopes of an incremental login to the earlier grants, and page tokens fetched afterwards carry them', async () => {
    const first = await grant({ granted: [...REQUIRED_PERMISSIONS], declined: [] })
    expect(first.cookie.startsWith(`${SESSION_COOKIE}=`)).toBe(true)
    expect(await granted(first.answer.authResponse.accessToken)).not.toContain('ads_management')

    const again = await grant({ granted: MARKETING_SCOPES, declined: [] }, first.cookie)
    const scopes = again.answer.authResponse.grantedScopes.split(',')
    expect(scopes).toEqual(expect.arrayContaining([...REQUIRED_PERMISSIONS, ...MARKETING_SCOPES]))
    const user = again.answer.authResponse.accessToken
    expect(await granted(user)).toEqual(
      expect.arrayContaining([...REQUIRED_PERMISSIONS, ...MARKETING_SCOPES]),
    )

    const page = await sb.pageToken(sb.ids.large, user)
    expect(await granted(page)).toEqual(expect.arrayContaining(MARKETING_SCOPES))
    const debug = (await (
      await fetch(
        `${sb.url}/graph/v25.0/debug_token?input_token=${page}&access_token=${sb.options.appId}|${sb.options.appSecret}`,
      )
    ).json()) as { data: { type: string; scopes: string[]; profile_id: string } }
    expect(debug.data).toMatchObject({ type: 'PAGE', profile_id: sb.ids.large })
    expect(debug.data.scopes).toEqual(expect.arrayContaining(['pages_messaging', ...MARKETING_SCOPES]))

    // The silent login status reissues the user's token with the grants of both answers.
    const status = (await (
      await fetch(`${sb.url}/login-status`, { headers: { cookie: again.cookie } })
    ).json()) as Answer
    expect(status.authResponse.grantedScopes.split(',')).toEqual(
      expect.arrayContaining(['pages_messaging', ...MARKETING_SCOPES]),
    )
  })

  it('declines a marketing scope unticked in the incremental login, keeping the earlier grants', async () => {
    const first = await grant({ granted: [...REQUIRED_PERMISSIONS], declined: [] })
    const again = await grant(
      { granted: ['ads_management'], declined: ['paid_marketing_messages'] },
      first.cookie,
    )
    const perms = await sb.client.permissions(again.answer.authResponse.accessToken)
    expect(perms).toEqual(
      expect.arrayContaining([
        { permission: 'ads_management', status: 'granted' },
        { permission: 'paid_marketing_messages', status: 'declined' },
        { permission: 'pages_messaging', status: 'granted' },
      ]),
    )
  })

  it('does not carry grants over to another user or to an answer without the session', async () => {
    const first = await grant({ granted: [...REQUIRED_PERMISSIONS, ...MARKETING_SCOPES], declined: [] })
    const other = await grant({ user: 'second', granted: ['email'], declined: [] }, first.cookie)
    expect(await granted(other.answer.authResponse.accessToken)).not.toContain('ads_management')
    const fresh = await grant({ granted: ['email'], declined: [] })
    expect(await granted(fresh.answer.authResponse.accessToken)).not.toContain('pages_messaging')
  })
})

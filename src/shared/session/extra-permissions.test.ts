import { afterEach, describe, expect, it } from 'vitest'
import { configureSession, loginWithSdk, requestExtraPermissions } from './actions.ts'
import type { SessionGraph } from './graph-port.ts'
import { testClientConfig } from '../../core/testing/session.ts'
import type { LoginResponse as SocialLoginResponse, SessionSocialSdk } from '../social/types.ts'
import { sessionStore } from './store.ts'

const MARKETING = ['ads_management', 'paid_marketing_messages'] as const

function fakeSdk(answer: SocialLoginResponse) {
  const asked: string[][] = []
  const sdk: SessionSocialSdk = {
    login: async (scopes) => {
      asked.push([...scopes])
      return answer
    },
    getLoginStatus: async () => answer,
    logout: async () => undefined,
  }
  return { sdk, asked }
}

const graph = (granted: string[]): SessionGraph => ({
  me: async () => ({ id: '1', name: 'Dana' }),
  accounts: async () => [],
  permissions: async () => granted.map((permission) => ({ permission, status: 'granted' as const })),
})

const connected = (grantedScopes?: string): SocialLoginResponse => ({
  status: 'connected',
  authResponse: { accessToken: 'user-token-2', userID: '1', grantedScopes },
})

afterEach(() => sessionStore.reset({ status: 'logged_out', accounts: [] }))

describe('the first login', () => {
  it('asks for exactly the six permissions of the product, none of marketing messages', async () => {
    const { sdk, asked } = fakeSdk({ status: 'unknown', authResponse: null })
    configureSession(testClientConfig, { sdk, graph: graph([]) })
    await loginWithSdk()
    expect(asked).toEqual([
      [
        'business_management',
        'pages_messaging',
        'pages_show_list',
        'email',
        'pages_manage_metadata',
        'pages_read_engagement',
      ],
    ])
  })
})

describe('extra permissions for one feature (incremental login)', () => {
  it('asks only for the named scopes and answers the new user token when both are granted', async () => {
    const { sdk, asked } = fakeSdk(connected('pages_messaging,ads_management,paid_marketing_messages'))
    configureSession(testClientConfig, { sdk, graph: graph([]) })
    expect(await requestExtraPermissions(MARKETING)).toEqual({ granted: true, userToken: 'user-token-2' })
    expect(asked).toEqual([['ads_management', 'paid_marketing_messages']])
  })

  it('names the declined scope', async () => {
    const { sdk } = fakeSdk(connected('pages_messaging,ads_management'))
    configureSession(testClientConfig, { sdk, graph: graph([]) })
    expect(await requestExtraPermissions(MARKETING)).toEqual({
      granted: false,
      reason: 'declined',
      missing: ['paid_marketing_messages'],
    })
  })

  it('reads the permissions from the network when the answer carries no scopes', async () => {
    const { sdk } = fakeSdk(connected(undefined))
    configureSession(testClientConfig, { sdk, graph: graph(['ads_management']) })
    expect(await requestExtraPermissions(MARKETING)).toMatchObject({
      granted: false,
      missing: ['paid_marketing_messages'],
    })
  })

  it('treats a closed dialog as not connected, and keeps the signed-in session', async () => {
    sessionStore.reset({ status: 'logged_in', accounts: [] })
    const { sdk } = fakeSdk({ status: 'unknown', authResponse: null })
    configureSession(testClientConfig, { sdk, graph: graph([]) })
    expect(await requestExtraPermissions(MARKETING)).toMatchObject({
      granted: false,
      reason: 'not_connected',
    })
    expect(sessionStore.getState().status).toBe('logged_in')
  })
})

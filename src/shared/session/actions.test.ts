import { describe, expect, it } from 'vitest'
import { missingPermissions } from './actions.ts'
import type { SessionGraph } from './graph-port.ts'
import type { LoginResponse as SocialLoginResponse } from '../social/types.ts'

const ALL =
  'business_management,pages_messaging,pages_show_list,email,pages_manage_metadata,pages_read_engagement'

function graphGranting(granted: string[]): SessionGraph {
  return {
    me: async () => ({ id: '1', name: 'Dana' }),
    accounts: async () => [],
    permissions: async () => granted.map((permission) => ({ permission, status: 'granted' as const })),
  }
}

const connected = (grantedScopes?: string): SocialLoginResponse => ({
  status: 'connected',
  authResponse: { accessToken: 'token', userID: '1', grantedScopes },
})

describe('required permissions', () => {
  it('accepts a login that granted every required permission', async () => {
    expect(await missingPermissions(connected(ALL), graphGranting([]))).toEqual([])
  })
  it('names each declined permission from the returned scopes', async () => {
    const scopes = ALL.replace('pages_messaging,', '').replace(',email', '')
    expect(await missingPermissions(connected(scopes), graphGranting([]))).toEqual([
      'pages_messaging',
      'email',
    ])
  })
  it('asks the network for the permissions when the answer carries no scopes', async () => {
    const graph = graphGranting(['business_management', 'pages_messaging', 'pages_show_list', 'email'])
    expect(await missingPermissions(connected(undefined), graph)).toEqual([
      'pages_manage_metadata',
      'pages_read_engagement',
    ])
  })
  it('treats an answer without a token as missing everything', async () => {
    expect(
      await missingPermissions({ status: 'unknown', authResponse: null }, graphGranting([])),
    ).toHaveLength(6)
  })
})

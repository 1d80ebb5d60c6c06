import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../core/constants/limits.ts'
import { startSandbox, type TestSandbox } from './test-support.ts'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(async () => {
  await sb.app.close()
})

const statusesOf = (perms: { permission: string; status: string }[], name: string) =>
  perms.filter((p) => p.permission === name).map((p) => p.status)

describe('a declined permission', () => {
  it('is only declined when POST /sandbox/token names it, even among the default scopes', async () => {
    const token = (await sb.post('/token', { user: 'demo', declined: ['pages_messaging'] })) as {
      access_token: string
    }
    const perms = await sb.client.permissions(token.access_token)
    expect(statusesOf(perms, 'pages_messaging')).toEqual(['declined'])
    expect(statusesOf(perms, 'email')).toEqual(['granted'])
  })

  it('is only declined when the login dialog is answered with it granted and declined', async () => {
    const answer = (await sb.post('/dialog/grant', {
      client_id: sb.options.appId,
      user: 'demo',
      granted: [...REQUIRED_PERMISSIONS],
      declined: ['pages_messaging'],
    })) as { authResponse: { accessToken: string; grantedScopes: string } }
    expect(answer.authResponse.grantedScopes.split(',')).not.toContain('pages_messaging')
    const perms = await sb.client.permissions(answer.authResponse.accessToken)
    expect(statusesOf(perms, 'pages_messaging')).toEqual(['declined'])
  })
})

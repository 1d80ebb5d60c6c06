import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ClientConfig } from '../../core/contracts/client-config.ts'
import type { Account } from '../../core/graph/types.ts'
import { configureSession } from './actions.ts'
import { freshPageToken, refreshedPageToken, retryPageTokensNow } from './page-token.ts'

const config = { fbAppId: 'sandbox-app', graphUrl: '/sandbox/graph', graphVersion: 'v25.0' } as ClientConfig

/** A connected owner whose pages come from `accounts`. */
function connectWith(accounts: () => Promise<Account[]>): void {
  configureSession(config, {
    sdk: {
      login: async () => ({ status: 'unknown' }),
      logout: async () => undefined,
      getLoginStatus: async () => ({
        status: 'connected',
        authResponse: { accessToken: 'u', userID: '1' },
      }),
    },
    graph: { me: async () => ({ id: '1', name: 'Dana' }), permissions: async () => [], accounts },
  })
}

describe('page token refresh', () => {
  it('shares one accounts read between askers and backs off while the page has no token', async () => {
    let reads = 0
    let listed: Account[] = [{ id: '10', name: 'Shop' }]
    connectWith(async () => {
      reads++
      await new Promise((r) => setTimeout(r, 10))
      return listed
    })
    const asked = await Promise.all([freshPageToken('10'), freshPageToken('10'), freshPageToken('10')])
    expect(asked).toEqual([undefined, undefined, undefined])
    expect(reads).toBe(1)
    // A storm of askers within the backoff reads nothing.
    for (let i = 0; i < 50; i++) expect(await freshPageToken('10')).toBeUndefined()
    expect(reads).toBe(1)
    // The owner acts: the next ask reads at once and finds the token.
    listed = [{ id: '10', name: 'Shop', access_token: 'page-token' }]
    retryPageTokensNow()
    expect(await freshPageToken('10')).toBe('page-token')
    expect(reads).toBe(2)
  })

  afterEach(() => vi.restoreAllMocks())

  it('extends a refreshed token for the inbox and hands the listed one to the bulk sender', async () => {
    connectWith(async () => [{ id: '20', name: 'Cafe', access_token: 'listed' }])
    const extend = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => Response.json({ accessToken: 'long-lived' }))
    expect(await refreshedPageToken('20', 'bulk')).toBe('listed')
    expect(extend).not.toHaveBeenCalled()
    expect(await refreshedPageToken('20', 'inbox')).toBe('long-lived')
    expect(String(extend.mock.calls[0]![0])).toContain('/api/v2/page/extend-token')
  })
})

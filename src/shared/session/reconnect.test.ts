import { afterEach, describe, expect, it, vi } from 'vitest'
import { clearSessionToken } from '../api/session-cookie.ts'
import { configureSession, initSession } from './actions.ts'
import { clearSnapshot, saveSnapshot } from './snapshot.ts'
import { signedInCookie } from '../testing/cookie.ts'
import { testClientConfig, testSubscription } from '../../core/testing/session.ts'
import { sessionStore } from './store.ts'

const config = testClientConfig

const subscription = testSubscription()

let online = false
Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })

afterEach(() => {
  vi.restoreAllMocks()
  clearSessionToken()
  clearSnapshot()
  online = true
})

describe('an offline start', () => {
  it('keeps trying to reconnect after the first try right after the online event fails', async () => {
    signedInCookie('api-token')
    saveSnapshot({ fbUser: { id: '1', name: 'Dana' }, accounts: [{ id: '10', name: 'Shop' }], subscription })
    configureSession(config, {
      sdk: {
        login: async () => ({ status: 'unknown', authResponse: null }),
        getLoginStatus: async () => ({
          status: 'connected',
          authResponse: { accessToken: 'user', userID: '1' },
        }),
        logout: async () => undefined,
      },
      graph: {
        me: async () => ({ id: '1', name: 'Dana' }),
        permissions: async () => [],
        accounts: async () => [{ id: '10', name: 'Shop', access_token: 'page-token' }],
      },
    })
    // The network is not usable yet when the browser says it is back: the first request fails.
    const fetchSpy = vi
      .spyOn(window, 'fetch')
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(Response.json({ data: { subscription } }))

    online = false
    await initSession()
    expect(sessionStore.getState()).toMatchObject({ status: 'logged_in', offline: true })

    online = true
    window.dispatchEvent(new Event('online'))
    await expect.poll(() => sessionStore.getState().offline, { timeout: 5_000 }).toBeUndefined()
    expect(sessionStore.getState().accounts[0]?.access_token).toBe('page-token')
    expect(fetchSpy.mock.calls.length).toBeGreaterThanOrEqual(2)
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { REQUIRED_PERMISSIONS } from '../../core/constants/limits.ts'
import { clearSessionToken, hasSessionCookie } from '../api/session-cookie.ts'
import { configureSession, initSession } from './actions.ts'
import { clearSnapshot, saveSnapshot } from './snapshot.ts'
import type { LoginResponse as SocialLoginResponse } from '../social/types.ts'
import { signedInCookie } from '../testing/cookie.ts'
import { testClientConfig, testSubscription } from '../../core/testing/session.ts'
import { sessionStore } from './store.ts'

const config = testClientConfig

const subscription = testSubscription()

function withSocialStatus(status: () => Promise<SocialLoginResponse>) {
  configureSession(config, {
    sdk: { login: status, getLoginStatus: status, logout: async () => undefined },
    graph: {
      me: async () => ({ id: '1', name: 'Dana' }),
      permissions: async () => REQUIRED_PERMISSIONS.map((permission) => ({ permission, status: 'granted' })),
      accounts: async () => [{ id: '10', name: 'Shop', access_token: 'page-token' }],
    },
  })
}

afterEach(() => {
  vi.restoreAllMocks()
  clearSessionToken()
  clearSnapshot()
  sessionStore.reset({ status: 'loading', accounts: [] })
})

describe('the start-up check of a remaining session cookie', () => {
  it("has the Graph reads' code loaded before the social login answers, so they go out with the product login", async () => {
    signedInCookie('api-token')
    let answer: (r: SocialLoginResponse) => void = () => undefined
    const prepare = vi.fn()
    const status = () => new Promise<SocialLoginResponse>((resolve) => (answer = resolve))
    configureSession(config, {
      sdk: { login: status, getLoginStatus: status, logout: async () => undefined },
      graph: {
        me: async () => ({ id: '1', name: 'Dana' }),
        permissions: async () => [],
        accounts: async () => [],
        prepare,
      },
    })
    vi.spyOn(window, 'fetch').mockResolvedValue(Response.json({ data: { subscription } }))
    const started = initSession()
    await vi.waitFor(() => expect(prepare).toHaveBeenCalledTimes(1))
    answer({ status: 'unknown', authResponse: null })
    await started
  })

  it('leaves the Graph code unloaded for a visitor without the session cookie', async () => {
    const prepare = vi.fn()
    configureSession(config, {
      sdk: {
        login: async () => ({ status: 'unknown', authResponse: null }),
        getLoginStatus: async () => ({ status: 'unknown', authResponse: null }),
        logout: async () => undefined,
      },
      graph: {
        me: async () => ({ id: '1', name: 'Dana' }),
        permissions: async () => [],
        accounts: async () => [],
        prepare,
      },
    })
    await initSession()
    expect(prepare).not.toHaveBeenCalled()
  })

  it('counts a social login that is gone as a failed login: signed out, the cookie dropped', async () => {
    signedInCookie('api-token')
    withSocialStatus(async () => ({ status: 'unknown', authResponse: null }))
    vi.spyOn(window, 'fetch').mockResolvedValue(Response.json({ data: { subscription } }))
    await initSession()
    expect(sessionStore.getState().status).toBe('logged_out')
    expect(sessionStore.getState().fbUser).toBeUndefined()
    expect(hasSessionCookie()).toBe(false)
  })

  it('signs in with name and pages when the social login is still connected', async () => {
    signedInCookie('api-token')
    withSocialStatus(async () => ({
      status: 'connected',
      authResponse: { accessToken: 'user', userID: '1' },
    }))
    vi.spyOn(window, 'fetch').mockImplementation(async () =>
      Response.json({
        data: {
          token: 'api-token',
          user: { id: 'u1', facebook_id: '1', name: 'Dana', email: null, subscription },
        },
      }),
    )
    await initSession()
    expect(sessionStore.getState()).toMatchObject({ status: 'logged_in', fbUser: { name: 'Dana' } })
    expect(sessionStore.getState().accounts).toHaveLength(1)
  })
})

describe('the start-up check without a usable connection', () => {
  it('starts from the remembered session when the social status cannot be read for want of a network', async () => {
    signedInCookie('api-token')
    saveSnapshot({ fbUser: { id: '1', name: 'Dana' }, accounts: [{ id: '10', name: 'Shop' }], subscription })
    withSocialStatus(async () => ({ status: 'unknown', authResponse: null }))
    vi.spyOn(window, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'))
    await initSession()
    expect(sessionStore.getState()).toMatchObject({
      status: 'logged_in',
      offline: true,
      fbUser: { name: 'Dana' },
    })
    expect(hasSessionCookie()).toBe(true)
  })
})

describe('the start-up check of a returning owner with a saved session', () => {
  const saved = () =>
    saveSnapshot({
      fbUser: { id: '1', name: 'Dana' },
      accounts: [{ id: '10', name: 'Shop', access_token: 'old-page-token' }],
      subscription,
    })

  it('draws the saved session before the social status answers, then the check replaces it', async () => {
    signedInCookie('api-token')
    saved()
    let answer!: (r: SocialLoginResponse) => void
    withSocialStatus(() => new Promise((resolve) => (answer = resolve)))
    vi.spyOn(window, 'fetch').mockImplementation(async () =>
      Response.json({
        data: {
          token: 'api-token',
          user: { id: 'u1', facebook_id: '1', name: 'Dana', email: null, subscription },
        },
      }),
    )
    const started = initSession()
    await vi.waitFor(() => expect(sessionStore.getState().status).toBe('logged_in'))
    expect(sessionStore.getState()).toMatchObject({
      offline: true,
      restoring: true,
      connected: ['10'],
      fbUser: { name: 'Dana' },
    })
    // Nothing saved carries a token.
    expect(sessionStore.getState().accounts[0]!.access_token).toBeUndefined()
    answer({ status: 'connected', authResponse: { accessToken: 'user', userID: '1' } })
    await started
    const state = sessionStore.getState()
    expect(state).toMatchObject({ status: 'logged_in', fbUser: { name: 'Dana' } })
    expect(state.offline).toBeUndefined()
    expect(state.restoring).toBeUndefined()
    expect(state.accounts[0]!.access_token).toBe('page-token')
  })

  it('signs out when the social login is gone, after drawing the saved session', async () => {
    signedInCookie('api-token')
    saved()
    withSocialStatus(async () => ({ status: 'unknown', authResponse: null }))
    vi.spyOn(window, 'fetch').mockResolvedValue(Response.json({ data: { subscription } }))
    await initSession()
    expect(sessionStore.getState().status).toBe('logged_out')
    expect(sessionStore.getState().accounts).toEqual([])
    expect(hasSessionCookie()).toBe(false)
  })

  it('stays on the saved session, now as an offline start, when the product login cannot be reached', async () => {
    signedInCookie('api-token')
    saved()
    withSocialStatus(async () => ({
      status: 'connected',
      authResponse: { accessToken: 'user', userID: '1' },
    }))
    vi.spyOn(window, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'))
    await initSession()
    const state = sessionStore.getState()
    expect(state).toMatchObject({ status: 'logged_in', offline: true, fbUser: { name: 'Dana' } })
    expect(state.restoring).toBeUndefined()
    expect(state.failReason).toBeUndefined()
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSandboxSdk, SANDBOX_LOGIN_MESSAGE } from './sandbox.ts'
import type { LoginResponse } from './types.ts'

const connected: LoginResponse = {
  status: 'connected',
  authResponse: {
    accessToken: 'EAAS1',
    userID: '42',
    expiresIn: 7200,
    grantedScopes: 'public_profile,email',
  },
}

function fakePopup() {
  const popup = { closed: false }
  const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window)
  return { popup, open }
}

function post(data: unknown, origin = window.location.origin) {
  window.dispatchEvent(new MessageEvent('message', { data, origin }))
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the sandbox social adapter', () => {
  it('opens the dialog synchronously on this origin with the requested scopes', () => {
    const { open } = fakePopup()
    void createSandboxSdk({ appId: 'app-1' }).login(['email', 'pages_messaging'])
    expect(open).toHaveBeenCalledTimes(1)
    const url = new URL(String(open.mock.calls[0]![0]), window.location.origin)
    expect(url.pathname).toBe('/sandbox/dialog/oauth')
    expect(url.searchParams.get('client_id')).toBe('app-1')
    expect(url.searchParams.get('scope')).toBe('email,pages_messaging')
  })

  it('resolves with the dialog answer and ignores messages from other origins or of other types', async () => {
    fakePopup()
    const result = createSandboxSdk({ appId: 'a' }).login(['email'])
    post(
      { type: SANDBOX_LOGIN_MESSAGE, response: { status: 'unknown', authResponse: null } },
      'https://evil.example',
    )
    post({ type: 'other', response: { status: 'unknown', authResponse: null } })
    post({ type: SANDBOX_LOGIN_MESSAGE, response: connected })
    expect(await result).toEqual(connected)
  })

  it('treats a popup closed without an answer as a cancel', async () => {
    const { popup } = fakePopup()
    const result = createSandboxSdk({ appId: 'a', closedPollMs: 10 }).login(['email'])
    popup.closed = true
    expect(await result).toEqual({ status: 'unknown', authResponse: null })
  })

  it('answers not connected when the popup is blocked', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null)
    expect(await createSandboxSdk({ appId: 'a' }).login(['email'])).toEqual({
      status: 'unknown',
      authResponse: null,
    })
  })
})

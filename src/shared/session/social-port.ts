/**
 * What the session needs from the social SDK: FB.login-shaped answers. `createSocialSdk` in
 * src/shared/social provides the real adapters; `sandboxPopupSdk` is the fallback the session uses for
 * the sandbox login dialog when no adapter is available.
 */
export interface SocialAuthResponse {
  accessToken: string
  userID: string
  expiresIn?: number
  /** Comma-separated, as FB.login with return_scopes answers. */
  grantedScopes?: string
}

export interface SocialLoginResponse {
  status: 'connected' | 'not_authorized' | 'unknown'
  authResponse?: SocialAuthResponse | null
}

export interface SessionSocialSdk {
  login(scopes: readonly string[]): Promise<SocialLoginResponse>
  getLoginStatus(): Promise<SocialLoginResponse>
  logout(): Promise<void>
}

const SANDBOX_MESSAGE = 'pagecast:sandbox-login'

/** Opens the sandbox login dialog in a popup (from the click handler) and waits for its answer. */
export function sandboxPopupSdk(appId: string): SessionSocialSdk {
  return {
    login(scopes) {
      const url = new URL('/sandbox/dialog/oauth', location.origin)
      url.searchParams.set('client_id', appId)
      url.searchParams.set('scope', scopes.join(','))
      url.searchParams.set('return_scopes', 'true')
      url.searchParams.set('redirect_uri', location.origin)
      const popup = window.open(url, 'pagecast-login', 'popup,width=520,height=640')
      return new Promise((resolve) => {
        const unknown: SocialLoginResponse = { status: 'unknown', authResponse: null }
        const closed = setInterval(() => {
          if (popup?.closed) finish(unknown)
        }, 500)
        function onMessage(event: MessageEvent) {
          if (event.origin !== location.origin) return
          const data: unknown = event.data
          if (!data || typeof data !== 'object' || !('type' in data) || data.type !== SANDBOX_MESSAGE) return
          finish((data as { response?: SocialLoginResponse }).response ?? unknown)
        }
        function finish(response: SocialLoginResponse) {
          clearInterval(closed)
          window.removeEventListener('message', onMessage)
          resolve(response)
        }
        window.addEventListener('message', onMessage)
        if (!popup) finish(unknown)
      })
    },
    // The sandbox keeps its own login in a cookie on its path, as the network's SDK does on its domain.
    async getLoginStatus() {
      const res = await fetch('/sandbox/login-status', { credentials: 'same-origin', cache: 'no-store' })
      if (!res.ok) return { status: 'unknown', authResponse: null }
      return (await res.json()) as SocialLoginResponse
    },
    async logout() {
      await fetch('/sandbox/logout', { method: 'POST', credentials: 'same-origin' })
    },
  }
}

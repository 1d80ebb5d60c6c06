/**
 * The sandbox adapter: the login dialog opens in a popup on the app's own origin (`/sandbox/dialog/oauth`),
 * which posts its answer back with `postMessage` and closes. A popup closed without an answer is a cancel.
 */
import { NOT_CONNECTED, type LoginResponse, type SocialSdk } from './types.ts'

export const SANDBOX_LOGIN_MESSAGE = 'pagecast:sandbox-login'

export interface SandboxSdkOptions {
  appId: string
  /** Path of the sandbox on this origin. */
  base?: string
  closedPollMs?: number
}

export function createSandboxSdk({
  appId,
  base = '/sandbox',
  closedPollMs = 400,
}: SandboxSdkOptions): SocialSdk {
  return {
    kind: 'sandbox',
    init: async () => undefined,

    login(scopes) {
      const url = `${base}/dialog/oauth?${new URLSearchParams({ client_id: appId, scope: scopes.join(','), response_type: 'token', auth_type: 'rerequest' })}`
      // Opened synchronously, before any await, so the browser counts it as part of the click.
      const popup = window.open(url, 'pagecast-login', 'popup,width=480,height=640')
      if (!popup) return Promise.resolve(NOT_CONNECTED)
      return new Promise<LoginResponse>((resolve) => {
        const finish = (response: LoginResponse) => {
          window.removeEventListener('message', onMessage)
          clearInterval(timer)
          resolve(response)
        }
        const onMessage = (event: MessageEvent) => {
          const data = event.data as { type?: unknown; response?: LoginResponse } | null
          if (event.origin !== window.location.origin || data?.type !== SANDBOX_LOGIN_MESSAGE) return
          finish(data.response ?? NOT_CONNECTED)
        }
        const timer = setInterval(() => {
          if (popup.closed) setTimeout(() => finish(NOT_CONNECTED), 50)
        }, closedPollMs)
        window.addEventListener('message', onMessage)
      })
    },

    async getLoginStatus() {
      try {
        const res = await fetch(`${base}/login-status`, { credentials: 'same-origin', cache: 'no-store' })
        return res.ok ? ((await res.json()) as LoginResponse) : NOT_CONNECTED
      } catch {
        return NOT_CONNECTED
      }
    },

    async logout() {
      await fetch(`${base}/logout`, { method: 'POST', credentials: 'same-origin' }).catch(() => undefined)
    },
  }
}

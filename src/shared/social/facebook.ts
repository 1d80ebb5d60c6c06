/** The facebook adapter: the network's JS SDK, loaded once, with the app id and Graph version from config. */
import { FB_SDK_URL } from '../../core/constants/social.ts'
import { NOT_CONNECTED, type LoginResponse, type SocialSdk } from './types.ts'

interface FbSdk {
  init(options: { appId: string; version: string; cookie?: boolean; xfbml?: boolean }): void
  login(
    cb: (r: LoginResponse) => void,
    options: { scope: string; return_scopes: boolean; auth_type: string },
  ): void
  getLoginStatus(cb: (r: LoginResponse) => void, force?: boolean): void
  logout(cb: (r: LoginResponse) => void): void
}

type FbWindow = Window & { FB?: FbSdk; fbAsyncInit?: () => void }

export { FB_SDK_URL }

export function createFacebookSdk({
  appId,
  graphVersion,
}: {
  appId: string
  graphVersion: string
}): SocialSdk {
  const w = window as FbWindow
  let ready: Promise<void> | undefined

  return {
    kind: 'facebook',

    init() {
      ready ??= new Promise<void>((resolve, reject) => {
        w.fbAsyncInit = () => {
          w.FB!.init({ appId, version: graphVersion, cookie: false, xfbml: false })
          resolve()
        }
        const script = document.createElement('script')
        script.src = FB_SDK_URL
        script.async = true
        script.crossOrigin = 'anonymous'
        script.onerror = () => {
          ready = undefined
          reject(new Error('The social network SDK could not be loaded'))
        }
        document.head.appendChild(script)
      })
      return ready
    },

    login(scopes) {
      const FB = w.FB
      // Not loaded yet: FB.login must run inside the click, so there is nothing to wait for.
      if (!FB) return Promise.resolve(NOT_CONNECTED)
      return new Promise((resolve) =>
        FB.login((r) => resolve(r ?? NOT_CONNECTED), {
          scope: scopes.join(','),
          return_scopes: true,
          auth_type: 'rerequest',
        }),
      )
    },

    async getLoginStatus() {
      await this.init().catch(() => undefined)
      const FB = w.FB
      if (!FB) return NOT_CONNECTED
      return new Promise((resolve) => FB.getLoginStatus((r) => resolve(r ?? NOT_CONNECTED), true))
    },

    async logout() {
      const FB = w.FB
      if (!FB) return
      const status = await this.getLoginStatus()
      if (status.status === 'connected') await new Promise<void>((resolve) => FB.logout(() => resolve()))
    },
  }
}

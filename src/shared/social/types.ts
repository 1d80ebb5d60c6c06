/** The app's one interface to the social network's login, with a `facebook` and a `sandbox` adapter. */

/** The shape `FB.login` and `FB.getLoginStatus` answer with. */
export interface LoginResponse {
  status: 'connected' | 'not_authorized' | 'unknown'
  authResponse?: {
    accessToken: string
    userID: string
    expiresIn?: number
    /** Comma-separated, present when requested with `return_scopes`. */
    grantedScopes?: string
    signedRequest?: string
  } | null
}

/** What the session uses of an adapter: login, the silent status check and logout. */
export type SessionSocialSdk = Pick<SocialSdk, 'login' | 'getLoginStatus' | 'logout'>

export interface SocialSdk {
  readonly kind: 'facebook' | 'sandbox'
  /** Loads what the adapter needs; call once at start-up, well before any login click. */
  init(): Promise<void>
  /** Call synchronously from the click handler: the popup must open inside the user gesture. */
  login(scopes: readonly string[]): Promise<LoginResponse>
  /** A fresh token without a popup when the network still has a session (token refresh). */
  getLoginStatus(): Promise<LoginResponse>
  logout(): Promise<void>
}

export const NOT_CONNECTED: LoginResponse = { status: 'unknown', authResponse: null }

export function grantedScopes(response: LoginResponse): string[] {
  return (response.authResponse?.grantedScopes ?? '').split(',').filter(Boolean)
}

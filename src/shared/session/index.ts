export type { LoginFailReason, SessionState, SessionStatus } from './store.ts'
export { sessionStore, setSubscription, useSession } from './store.ts'
export {
  configureSession,
  hasPermissions,
  initSession,
  loginWithSdk,
  logout,
  missingPermissions,
  refreshAccounts,
  requestExtraPermissions,
} from './actions.ts'
export type { ExtraPermissionsResult, SessionDeps } from './actions.ts'
export { freshPageToken, refreshedPageToken, retryPageTokensNow, type PageTokenUse } from './page-token.ts'
export type { SessionSocialSdk } from '../social/types.ts'
export { type SessionGraph, sessionGraph } from './graph-port.ts'
export { rememberSubscription } from './snapshot.ts'
export { captureReferral, parseReferral, storedReferral, type ReferralCodes } from './referral.ts'
export { SESSION_COOKIE } from '../api/session-cookie.ts'

/** Login, start-up check, logout and silent account refresh (docs/product-rules.md#authentication). */
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { backoff } from '../../core/network/backoff.ts'
import { dismissAll, notify } from '../notifications/store.ts'
import { clearSessionToken, hasSessionCookie } from '../api/session-cookie.ts'
import { fetchSubscription, isNetworkFailure, postLogin, postLogout } from '../api/session-fetch.ts'
import { onUnauthorized } from '../api/unauthorized.ts'
import { REQUIRED_PERMISSIONS } from '../../core/constants/limits.ts'
import type { LoginResponse } from '../../core/contracts/api.ts'
import type { ClientConfig } from '../../core/contracts/client-config.ts'
import type { Account } from '../../core/graph/types.ts'
import { type SessionGraph, sessionGraph } from './graph-port.ts'
import { createSandboxSdk } from '../social/sandbox.ts'
import type { LoginResponse as SocialLoginResponse, SessionSocialSdk } from '../social/types.ts'
import { captureReferral } from './referral.ts'
import { clearSnapshot, loadSnapshot, saveSnapshot, type SessionSnapshot } from './snapshot.ts'
import { sessionStore } from './store.ts'

export interface SessionDeps {
  sdk: SessionSocialSdk
  graph: SessionGraph
}

let deps: SessionDeps | undefined
let userToken: string | undefined

/** The local database's code, loaded off the first screen's path (it is needed only around sign-in/out). */
const deviceData = () => import('./device-data.ts')

/**
 * Before anything is shown to `owner`, the device's data becomes theirs: another user's is wiped first
 * (see device-data.ts). A storage that cannot be opened costs nothing here: there is nothing to show either.
 */
async function claimDeviceFor(owner: string): Promise<void> {
  const previous = loadSnapshot()?.fbUser?.id
  try {
    await (await deviceData()).claimDevice(owner, previous)
  } catch (err) {
    console.warn('the local data could not be checked', err)
  }
}

/** The app injects the social adapter; without one, the sandbox popup and a minimal Graph reader serve. */
export function configureSession(config: ClientConfig, overrides: Partial<SessionDeps> = {}): void {
  deps = {
    sdk: overrides.sdk ?? createSandboxSdk({ appId: config.fbAppId }),
    graph: overrides.graph ?? sessionGraph(config),
  }
}

function need(): SessionDeps {
  if (!deps) throw new Error('configureSession must run before the session is used')
  return deps
}

/** The permissions a login granted: those in its answer (grantedScopes), else those on /me/permissions. */
async function grantedPermissions(
  auth: NonNullable<SocialLoginResponse['authResponse']>,
  graph: SessionGraph,
): Promise<string[]> {
  if (auth.grantedScopes !== undefined)
    return auth.grantedScopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  const list = await graph.permissions(auth.accessToken)
  // A permission also listed as declined is not granted.
  const declined = new Set(list.filter((p) => p.status !== 'granted').map((p) => p.permission))
  return list.filter((p) => p.status === 'granted' && !declined.has(p.permission)).map((p) => p.permission)
}

/** Missing permissions: those not granted in the answer (grantedScopes) or on /me/permissions. */
export async function missingPermissions(
  response: SocialLoginResponse,
  graph: SessionGraph,
): Promise<string[]> {
  const auth = response.authResponse
  if (!auth) return [...REQUIRED_PERMISSIONS]
  const granted = await grantedPermissions(auth, graph)
  return REQUIRED_PERMISSIONS.filter((p) => !granted.includes(p))
}

/**
 * Whether the current social login granted all these permissions, as far as the session knows (a session
 * restored without its login's answer knows only the first login's): read at once, so a click handler can
 * still open the network's dialog when it answers false.
 */
export function hasPermissions(scopes: readonly string[]): boolean {
  const granted = sessionStore.getState().grantedScopes ?? []
  return scopes.every((s) => granted.includes(s))
}

/** Signed in for good: not a saved session drawn while its sign-in is checked. */
function signedIn(): boolean {
  const state = sessionStore.getState()
  return state.status === 'logged_in' && !state.restoring
}

function fail(reason: 'declined' | 'not_connected' | 'server', declined?: string[]): void {
  // A signed-in user who abandons a second login (to connect another page) stays signed in.
  if (signedIn()) {
    notify({
      kind: 'warning',
      title: i18n._(msg`The page could not be connected`),
      message: reason === 'declined' ? i18n._(msg`Please keep every permission checked.`) : undefined,
    })
    return
  }
  userToken = undefined
  sessionStore.reset({ status: 'login_failed', accounts: [], failReason: reason, declined })
}

async function completeLogin(response: SocialLoginResponse): Promise<void> {
  const { graph } = need()
  if (response.status !== 'connected' || !response.authResponse) return fail('not_connected')
  const grantedScopes = await grantedPermissions(response.authResponse, graph).catch((): string[] => [])
  const missing = REQUIRED_PERMISSIONS.filter((p) => !grantedScopes.includes(p))
  if (missing.length > 0) return fail('declined', missing)
  const accessToken = response.authResponse.accessToken
  const { referral, coupon } = captureReferral()
  // The profile and the pages need only the user token: read them while the product login runs, and load
  // the owner check's code meanwhile too.
  const profile = graph.me(accessToken).catch(() => undefined)
  const pages = graph.accounts(accessToken).catch(() => [] as Account[])
  void deviceData().catch(() => undefined)
  let login: LoginResponse
  try {
    login = await postLogin({ access_token: accessToken, referral: referral ?? null, coupon: coupon ?? null })
  } catch (err) {
    const snapshot = offlineFallback(err)
    return snapshot ? startOffline(snapshot) : fail('server')
  }
  // The login's answer set the session cookie (the bearer of the calls that follow).
  userToken = accessToken
  const [found, accounts] = await Promise.all([profile, pages, claimDeviceFor(login.data.user.facebook_id)])
  const me = found ?? { id: login.data.user.facebook_id, name: login.data.user.name }
  sessionStore.reset({
    status: 'logged_in',
    fbUser: me,
    accounts,
    subscription: login.data.user.subscription,
    grantedScopes,
  })
}

/** A network failure on start-up with a remembered session: start from the snapshot instead of failing. */
function offlineFallback(err: unknown): SessionSnapshot | undefined {
  const { status, restoring } = sessionStore.getState()
  return isNetworkFailure(err) && hasSessionCookie() && (status === 'loading' || restoring)
    ? loadSnapshot()
    : undefined
}

/** Draws the saved session (no page token): `restoring` while the sign-in is checked online. */
async function startFromSnapshot(snapshot: SessionSnapshot, restoring: boolean): Promise<void> {
  const owner = snapshot.fbUser?.id ?? snapshot.subscription?.facebook_id
  if (owner) await claimDeviceFor(owner)
  sessionStore.reset({ status: 'logged_in', offline: true, ...(restoring ? { restoring } : {}), ...snapshot })
}

async function startOffline(snapshot: SessionSnapshot): Promise<void> {
  await startFromSnapshot(snapshot, false)
  resumeWhenOnline(0)
}

/**
 * Waits before each new try to reconnect an offline start. The `online` event often comes before the network
 * is usable, so a failed try is repeated on a timer while the browser says it is online, not only on the
 * next event (which may never come): 1 s doubling to 30 s, jittered.
 */
const RESUME_RETRY_BASE_MS = 1_000
const RESUME_RETRY_MAX_MS = 30_000

function resumeWhenOnline(attempt: number): void {
  const run = () => void resumeOnline(attempt)
  if (!navigator.onLine) {
    window.addEventListener('online', run, { once: true })
    return
  }
  if (attempt === 0) return run()
  window.setTimeout(run, backoff(attempt, RESUME_RETRY_BASE_MS, RESUME_RETRY_MAX_MS, Math.random))
}

/** Back online after an offline start: the session is checked again and the page tokens fetched anew. */
async function resumeOnline(attempt: number): Promise<void> {
  const { sdk, graph } = need()
  try {
    // A social login status that could not be read is a failed try, not a signed-out user.
    const status = await sdk.getLoginStatus()
    const token = status.status === 'connected' ? status.authResponse?.accessToken : undefined
    const subscription = await fetchSubscription()
    const current = sessionStore.getState()
    if (current.status !== 'logged_in') return
    let { fbUser, accounts } = current
    if (token) {
      userToken = token
      ;[fbUser, accounts] = await Promise.all([
        graph.me(token).catch(() => fbUser),
        graph.accounts(token).catch(() => accounts),
      ])
    }
    sessionStore.reset({
      status: 'logged_in',
      fbUser,
      accounts,
      subscription,
      ...(current.grantedScopes ? { grantedScopes: current.grantedScopes } : {}),
    })
  } catch (err) {
    // A 401 has already ended the session; any other failure is tried again.
    console.error('reconnecting the session failed; trying again', err)
    if (sessionStore.getState().status === 'logged_in') resumeWhenOnline(attempt + 1)
  }
}

let snapshotsKept = false

/** Every signed-in state is remembered without its tokens; leaving the session forgets it. */
function keepSnapshots(): void {
  if (snapshotsKept) return
  snapshotsKept = true
  sessionStore.subscribe(() => {
    const state = sessionStore.getState()
    if (state.status === 'logged_in') saveSnapshot(state)
    else if (state.status !== 'loading') clearSnapshot()
  })
}

/** Start-up: checks the session only when the cookie exists (docs/product-rules.md#authentication). */
export async function initSession(): Promise<void> {
  captureReferral()
  keepSnapshots()
  onUnauthorized(() => {
    userToken = undefined
    if (sessionStore.getState().status !== 'logged_out')
      sessionStore.reset({ status: 'logged_out', accounts: [] })
  })
  if (!hasSessionCookie()) return sessionStore.reset({ status: 'logged_out', accounts: [] })
  const snapshot = loadSnapshot()
  if (!navigator.onLine && snapshot) return startOffline(snapshot)
  const { sdk, graph } = need()
  // The profile and the pages are read as soon as the social login answers, alongside the product login:
  // their code loads now rather than after the login is sent.
  graph.prepare?.()
  // An unreadable status is judged below: it is an answer only when the network works.
  const statusRead = sdk.getLoginStatus().catch((): SocialLoginResponse => ({ status: 'unknown' }))
  // A returning owner sees what was saved at once, while the sign-in is checked; its answer replaces it
  // (docs/decisions.md#a-returning-owners-saved-session-is-drawn-before-it-is-checked).
  if (snapshot) await startFromSnapshot(snapshot, true)
  const status = await statusRead
  if (status.status === 'connected' && status.authResponse) return completeLogin(status)
  // A social status read without a connection is no answer: the remembered session stands in until it can.
  try {
    await fetchSubscription()
  } catch (err) {
    const fallback = offlineFallback(err)
    if (fallback) return startOffline(fallback)
  }
  // A login is valid only when the social status is connected (docs/product-rules.md#login-permissions). A
  // session cookie whose social login is gone is a failed login, which resets the state to logged out (no
  // name, no pages).
  userToken = undefined
  clearSessionToken()
  sessionStore.reset({ status: 'logged_out', accounts: [] })
}

/** Must be called straight from a click handler: the login popup needs the user's gesture. */
export async function loginWithSdk(): Promise<void> {
  const { sdk } = need()
  const pending = sdk.login(REQUIRED_PERMISSIONS)
  const response = await pending.catch((): SocialLoginResponse => ({ status: 'unknown' }))
  await completeLogin(response)
}

/** What an incremental login (extra permissions for one feature) answered. */
export type ExtraPermissionsResult =
  | { granted: true; userToken: string }
  | { granted: false; reason: 'declined' | 'not_connected'; missing: string[] }

/**
 * Asks the network for permissions beyond the first login's, only when a feature needs them (incremental
 * login: the same dialog, `auth_type=rerequest`, with just these scopes). The user token it answers replaces
 * the session's in memory and the page tokens are read again with it before this answers: a page token read
 * before the grant does not carry it, so a call that needs the grant (a campaign) would be refused with it.
 * Must be called straight from a click handler.
 */
export async function requestExtraPermissions(scopes: readonly string[]): Promise<ExtraPermissionsResult> {
  const { sdk, graph } = need()
  const response = await sdk.login(scopes).catch((): SocialLoginResponse => ({ status: 'unknown' }))
  const auth = response.authResponse
  if (response.status !== 'connected' || !auth)
    return { granted: false, reason: 'not_connected', missing: [...scopes] }
  const granted = await grantedPermissions(auth, graph).catch((): string[] => [])
  const missing = scopes.filter((s) => !granted.includes(s))
  if (missing.length > 0) return { granted: false, reason: 'declined', missing }
  userToken = auth.accessToken
  // The page tokens as this token lists them carry the new grants: the session takes both at once, so whoever
  // follows the grants (a page's token in use) finds the new tokens with them.
  const accounts = await graph.accounts(auth.accessToken).catch(() => undefined)
  const known = sessionStore.getState().grantedScopes ?? []
  sessionStore.setState({
    grantedScopes: [...new Set([...known, ...granted])],
    ...(accounts ? { accounts } : {}),
  })
  return { granted: true, userToken: auth.accessToken }
}

/**
 * Ends the session on the server, then leaves nothing of the user on the device: the local database, the
 * offline snapshot, the picture caches, the notifications and, through the store's reset, the page tokens
 * and the query cache. Offline, the device is wiped all the same and the cookie cleared; the server's
 * session then ends by itself after its idle period. Whatever writes to the local database (the bulk
 * sender) must be stopped by the caller first.
 */
export async function logout(): Promise<void> {
  const wipe = deviceData()
  await postLogout()
  try {
    await (await wipe).wipeDeviceData()
  } catch (err) {
    console.error('the local data could not be deleted', err)
  }
  userToken = undefined
  clearSessionToken()
  clearSnapshot()
  dismissAll()
  sessionStore.reset({ status: 'logged_out', accounts: [] })
  await deps?.sdk.logout().catch(() => undefined)
}

let reading: Promise<Account[]> | undefined

/**
 * Re-reads the page accounts (and their tokens) silently, e.g. when a page token expired. One read at a
 * time: callers asking while one runs share its answer.
 */
export function refreshAccounts(): Promise<Account[]> {
  reading ??= readAccounts().finally(() => (reading = undefined))
  return reading
}

async function readAccounts(): Promise<Account[]> {
  const { sdk, graph } = need()
  const status = await sdk.getLoginStatus().catch((): SocialLoginResponse => ({ status: 'unknown' }))
  const token = status.authResponse?.accessToken ?? userToken
  if (!token) return sessionStore.getState().accounts
  userToken = token
  const accounts = await graph.accounts(token)
  sessionStore.setState({ accounts })
  return accounts
}

/**
 * The authentication state (docs/product-rules.md#authentication) as a tiny external store, usable from React
 * (`useSession`) and from plain code (`sessionStore.getState()`). User and page tokens stay in memory.
 */
import { useSyncExternalStore } from 'react'
import type { SubscriptionState } from '../../core/contracts/api.ts'
import type { Account, Me } from '../../core/graph/types.ts'

export type SessionStatus = 'loading' | 'logged_out' | 'login_failed' | 'logged_in'
export type LoginFailReason = 'declined' | 'not_connected' | 'server'

export interface SessionState {
  status: SessionStatus
  fbUser?: Me
  /** Page accounts with their page tokens; memory only. */
  accounts: Account[]
  subscription?: SubscriptionState
  failReason?: LoginFailReason
  /**
   * Signed in from the saved snapshot: no page token yet. Without `restoring` the network was missing, and
   * the session is checked again when it is back.
   */
  offline?: boolean
  /** With `offline`: the snapshot is drawn while the sign-in is checked online; its answer replaces it. */
  restoring?: boolean
  /** With `offline`: the pages that were connected when the snapshot was saved. */
  connected?: string[]
  /** Permissions the user declined in the last login attempt. */
  declined?: string[]
  /** Permissions the current social login granted (the first login's, and any asked for since). */
  grantedScopes?: string[]
}

type Listener = () => void

let state: SessionState = { status: 'loading', accounts: [] }
const listeners = new Set<Listener>()

/**
 * Equal for the store's purposes: the same value, or plain data with the same content (a subscription or an
 * account list read again from the server). Such a patch changes nothing, and nobody re-renders for it.
 */
function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  try {
    return JSON.stringify(a) === JSON.stringify(b)
  } catch {
    return false
  }
}

export const sessionStore = {
  getState: (): SessionState => state,
  setState(patch: Partial<SessionState> | ((s: SessionState) => Partial<SessionState>)): void {
    const next = typeof patch === 'function' ? patch(state) : patch
    const changed = (Object.keys(next) as (keyof SessionState)[]).some((k) => !sameData(state[k], next[k]))
    if (!changed) return
    state = { ...state, ...next }
    for (const l of listeners) l()
  },
  /** Replaces the whole state (logout and login failure reset it, docs/product-rules.md#authentication). */
  reset(next: SessionState): void {
    state = next
    for (const l of listeners) l()
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

export function useSession(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getState)
}

/**
 * Whether a page is drawn as connected: it has a page token, or, for a session drawn from the saved snapshot
 * (which holds no token), it was connected when the snapshot was saved.
 */
export function drawnConnected(
  session: Pick<SessionState, 'offline' | 'connected'>,
  account: Account,
): boolean {
  return session.offline ? Boolean(session.connected?.includes(account.id)) : Boolean(account.access_token)
}

export function setSubscription(subscription: SubscriptionState): void {
  sessionStore.setState({ subscription })
}

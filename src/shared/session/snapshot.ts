/**
 * The last signed-in state without any secret, so a reload without network can still show the layout, the
 * pages and the cached conversations. Page tokens are dropped before writing (they live in memory only); the
 * API bearer stays in its cookie.
 */
import { isSubscriptionState } from '../api/guards.ts'
import type { SubscriptionState } from '../../core/contracts/api.ts'
import type { Account, Me } from '../../core/graph/types.ts'

const KEY = 'pagecast-session-snapshot'

export interface SessionSnapshot {
  fbUser?: Me
  /** Never carries `access_token`. */
  accounts: Account[]
  /** The pages that had a page token when it was saved: the ones an offline start shows as connected. */
  connected?: string[]
  subscription?: SubscriptionState
}

export function withoutTokens(accounts: readonly Account[]): Account[] {
  return accounts.map((account) => {
    const copy = { ...account }
    delete copy.access_token
    return copy
  })
}

/** Only the profile fields: `Me` may also carry accounts, and so page tokens. */
function publicProfile({ id, name, email, picture }: Me): Me {
  return { id, name, email, picture }
}

/** `offline`: the state is itself an offline start, which knows no token: the connected pages stay as saved. */
export function saveSnapshot(snapshot: SessionSnapshot & { offline?: boolean }): void {
  const safe: SessionSnapshot = {
    fbUser: snapshot.fbUser && publicProfile(snapshot.fbUser),
    accounts: withoutTokens(snapshot.accounts),
    connected: snapshot.offline
      ? (snapshot.connected ?? [])
      : snapshot.accounts.filter((a) => a.access_token).map((a) => a.id),
    subscription: snapshot.subscription,
  }
  try {
    localStorage.setItem(KEY, JSON.stringify(safe))
  } catch {
    // A full or blocked storage only costs the offline start.
  }
}

export function loadSnapshot(): SessionSnapshot | undefined {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null')
    if (typeof parsed !== 'object' || parsed === null) return undefined
    const { fbUser, accounts, connected, subscription } = parsed as Record<string, unknown>
    if (!Array.isArray(accounts)) return undefined
    return {
      fbUser: typeof fbUser === 'object' && fbUser !== null ? publicProfile(fbUser as Me) : undefined,
      accounts: withoutTokens(accounts as Account[]),
      connected: Array.isArray(connected) ? connected.filter((id) => typeof id === 'string') : [],
      subscription: isSubscriptionState(subscription) ? subscription : undefined,
    }
  } catch {
    return undefined
  }
}

/**
 * A subscription the server changed just before the page reloads (the terms accepted): the saved session
 * learns it first, so a reload that starts without network does not show what was already answered.
 */
export function rememberSubscription(subscription: SubscriptionState): void {
  const saved = loadSnapshot()
  if (saved) saveSnapshot({ ...saved, subscription, offline: true })
}

export function clearSnapshot(): void {
  localStorage.removeItem(KEY)
}

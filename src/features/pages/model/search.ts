/**
 * Home page list: connected pages first, then a fuzzy name search (docs/product-rules.md#home, threshold
 * 0.2). The fuzzy matcher's code is fetched when the search is first used, not with every start; until it is
 * there a plain part of the name matches.
 */
import { PAGE_SEARCH_THRESHOLD } from '../../../core/constants/limits.ts'
import type { Account } from '../../../core/graph/types.ts'
import { type FuzzyMatcher, loadedFuzzy } from '../../../shared/ui/fuzzy-matcher.ts'

/** Whether a page is connected: it has a page token, unless the caller knows better (a saved session). */
export type IsConnected = (account: Account) => boolean
const hasToken: IsConnected = (a) => Boolean(a.access_token)

/** Stable: keeps the accounts' own order within each group. */
export function connectedFirst(accounts: readonly Account[], isConnected: IsConnected = hasToken): Account[] {
  return [...accounts.filter(isConnected), ...accounts.filter((a) => !isConnected(a))]
}

export function searchPages(
  accounts: readonly Account[],
  query: string,
  Matcher: FuzzyMatcher | undefined = loadedFuzzy(),
  isConnected: IsConnected = hasToken,
): Account[] {
  const sorted = connectedFirst(accounts, isConnected)
  const q = query.trim()
  if (!q) return sorted
  const lower = q.toLowerCase()
  const hits = new Set<string>()
  if (Matcher) {
    const fuse = new Matcher(sorted, {
      keys: ['name'],
      threshold: PAGE_SEARCH_THRESHOLD,
      ignoreLocation: true,
      isCaseSensitive: false,
    })
    for (const r of fuse.search(q)) hits.add(r.item.id)
  }
  // A plain substring always matches, whatever the fuzzy score says.
  for (const a of sorted) if (a.name.toLowerCase().includes(lower)) hits.add(a.id)
  return sorted.filter((a) => hits.has(a.id))
}

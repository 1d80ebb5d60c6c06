/** Home page list: connected pages first, then a fuzzy name search (spec section 2, threshold 0.2). */
import Fuse from 'fuse.js'
import { PAGE_SEARCH_THRESHOLD } from '../../../shared/constants/limits.ts'
import type { Account } from '../../../shared/graph/types.ts'

/** Stable: keeps the accounts' own order within each group. */
export function connectedFirst(accounts: readonly Account[]): Account[] {
  return [...accounts.filter((a) => a.access_token), ...accounts.filter((a) => !a.access_token)]
}

export function searchPages(accounts: readonly Account[], query: string): Account[] {
  const sorted = connectedFirst(accounts)
  const q = query.trim()
  if (!q) return sorted
  const lower = q.toLowerCase()
  const fuse = new Fuse(sorted, {
    keys: ['name'],
    threshold: PAGE_SEARCH_THRESHOLD,
    ignoreLocation: true,
    isCaseSensitive: false,
  })
  const hits = new Set(fuse.search(q).map((r) => r.item.id))
  // A plain substring always matches, whatever the fuzzy score says.
  for (const a of sorted) if (a.name.toLowerCase().includes(lower)) hits.add(a.id)
  return sorted.filter((a) => hits.has(a.id))
}

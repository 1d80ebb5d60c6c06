/**
 * The conversation filter (docs/product-rules.md#conversation-filter), over every cached conversation of the
 * page (the background sync fills the cache): a case-insensitive substring of the snippet or the name, newest
 * first; then, for a query of a few letters, names that match it fuzzily (a typo, a missing letter). The
 * threshold is half the home page's: among a thousand customers sharing first names, 0.2 lets "Paolo Wijaya"
 * find "Paolo Hidayat". The fuzzy matcher's code is fetched when the filter is first used.
 */
import type Fuse from 'fuse.js'
import type { CachedConversation } from '../../../device/db/db.ts'
import type { FuzzyMatcher } from '../../../shared/ui/fuzzy-matcher.ts'

/** About one letter wrong in ten. */
export const CONVERSATION_FUZZY_THRESHOLD = 0.1
/** Shorter queries match too much fuzzily: they go by substring only. */
export const FUZZY_MIN_LENGTH = 4

// Lower-cased text per row, computed once per row object so a keystroke over 10,000 rows stays cheap.
const haystacks = new WeakMap<CachedConversation, string>()

function haystackOf(row: CachedConversation): string {
  let text = haystacks.get(row)
  if (text === undefined) {
    text = `${row.customerName}\n${row.snippet}`.toLocaleLowerCase()
    haystacks.set(row, text)
  }
  return text
}

// One fuzzy index per list of rows (the list changes as the cache does, not on every keystroke).
const indexes = new WeakMap<readonly CachedConversation[], Fuse<CachedConversation>>()

function fuzzyIndex(rows: readonly CachedConversation[], Matcher: FuzzyMatcher): Fuse<CachedConversation> {
  let index = indexes.get(rows)
  if (!index) {
    index = new Matcher(rows as CachedConversation[], {
      keys: ['customerName'],
      threshold: CONVERSATION_FUZZY_THRESHOLD,
      ignoreLocation: true,
      isCaseSensitive: false,
    })
    indexes.set(rows, index)
  }
  return index
}

export function filterConversations<T extends CachedConversation>(
  rows: readonly T[],
  query: string,
  Matcher: FuzzyMatcher | undefined = undefined,
): readonly T[] {
  const needle = query.trim().toLocaleLowerCase()
  if (!needle) return rows
  const exact = rows.filter((row) => haystackOf(row).includes(needle))
  if (!Matcher || needle.length < FUZZY_MIN_LENGTH) return exact
  const found = new Set(exact)
  const near = fuzzyIndex(rows, Matcher)
    .search(needle)
    .map((r) => r.item as T)
    .filter((row) => !found.has(row))
  return near.length ? [...exact, ...near] : exact
}

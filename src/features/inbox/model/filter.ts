/** The conversation filter of spec section 5: a case-insensitive substring of the snippet or the name. */
import type { CachedConversation } from '../../../shared/db/db.ts'

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

export function filterConversations(
  rows: readonly CachedConversation[],
  query: string,
): readonly CachedConversation[] {
  const needle = query.trim().toLocaleLowerCase()
  if (!needle) return rows
  return rows.filter((row) => haystackOf(row).includes(needle))
}

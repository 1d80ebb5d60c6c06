/**
 * What the conversation list shows of each cached conversation once the server's needs-reply states are
 * joined to it (docs/product-rules.md#who-is-waiting), and the list's filters and sorts: one small union,
 * kept in the address (`?filter=unread`, `?filter=needs_reply`, `?sort=window`), so adding a filter is one
 * more case here.
 */
import type { ConversationState } from '../../../core/contracts/conversation-states.ts'
import type { CachedConversation } from '../../../device/db/db.ts'
import { broadcastAfterCustomer, needsReply } from '../../../core/policy/needs-reply.ts'
import { STANDARD_WINDOW_MS } from '../../../core/policy/window.ts'

/** A list row: the cached conversation as the network gave it, and what the product adds to it. */
export interface InboxRow extends CachedConversation {
  needsReply: boolean
  /** The page's last message is a broadcast after the customer's words: its text, shown apart. */
  broadcastText?: string
  /** When the 24-hour window to answer closes (ms), for a conversation that needs a reply. */
  windowEndsAt?: number
}

export type ListFilter = { kind: 'all' } | { kind: 'unread' } | { kind: 'needs_reply' }
export type ListSort = 'newest' | 'window'

export const FILTERS: readonly ListFilter[] = [{ kind: 'all' }, { kind: 'unread' }, { kind: 'needs_reply' }]

/** The filter named in the address (`filter`); anything else is All. */
export function parseFilter(search: { filter?: unknown }): ListFilter {
  if (search.filter === 'unread') return { kind: 'unread' }
  if (search.filter === 'needs_reply') return { kind: 'needs_reply' }
  return { kind: 'all' }
}

/** The address's parameters of a filter (All has none). */
export function filterSearch(filter: ListFilter): { filter?: 'unread' | 'needs_reply' } {
  return filter.kind === 'all' ? {} : { filter: filter.kind }
}

export function parseSort(search: { sort?: unknown }): ListSort {
  return search.sort === 'window' ? 'window' : 'newest'
}

export function sameFilter(a: ListFilter, b: ListFilter): boolean {
  return a.kind === b.kind
}

export function matchesFilter(filter: ListFilter, row: InboxRow): boolean {
  switch (filter.kind) {
    case 'all':
      return true
    case 'unread':
      return row.unreadCount > 0
    case 'needs_reply':
      return row.needsReply
  }
}

/**
 * The row with its state: whether it needs a reply (the state's word, else the network's newest message is
 * the customer's), and, after a broadcast, the customer's own last words and unread count with the broadcast
 * apart (the network shows the broadcast and zeroes its count when the page sends). Opened here since the
 * customer's last words: nothing is unread.
 */
export function toInboxRow(row: CachedConversation, state: ConversationState | undefined): InboxRow {
  const out: InboxRow = { ...row, needsReply: needsReply(state, row) }
  if (state?.customerAt) {
    const at = Date.parse(state.customerAt)
    out.lastCustomerMessageAt = Math.max(row.lastCustomerMessageAt ?? 0, at)
  }
  if (state && broadcastAfterCustomer(state)) {
    out.snippet = state.customerText ?? row.snippet
    out.broadcastText = state.broadcastText ?? ''
    const seen = (row.seenAt ?? 0) >= Date.parse(state.customerAt ?? '')
    out.unreadCount = seen ? row.unreadCount : Math.max(row.unreadCount, state.unread)
  }
  if (out.needsReply && out.lastCustomerMessageAt !== undefined)
    out.windowEndsAt = out.lastCustomerMessageAt + STANDARD_WINDOW_MS
  return out
}

/** Each cached row's list row, for as long as neither the row nor its state changes. */
const joined = new WeakMap<CachedConversation, { state: ConversationState | undefined; row: InboxRow }>()

/**
 * The list's rows. A row whose cached conversation and state are the same objects as last time is the same
 * list row as last time, so the list does not draw it again.
 */
export function toInboxRows(
  rows: readonly CachedConversation[],
  states: ReadonlyMap<string, ConversationState> | undefined,
): InboxRow[] {
  return rows.map((r) => {
    const state = states?.get(r.customerId)
    const known = joined.get(r)
    if (known && known.state === state) return known.row
    const row = toInboxRow(r, state)
    joined.set(r, { state, row })
    return row
  })
}

/** The window's time left shows on a row when under this. */
export const WINDOW_SHOWN_UNDER_MS = 4 * 60 * 60_000

/** How long is left to answer inside the window, when it is open and under a few hours. */
export function windowLeft(row: InboxRow, now: number): number | undefined {
  if (row.windowEndsAt === undefined) return undefined
  const left = row.windowEndsAt - now
  return left > 0 && left < WINDOW_SHOWN_UNDER_MS ? left : undefined
}

/** How many rows each filter keeps. */
export function filterCounts(rows: readonly InboxRow[]): Record<ListFilter['kind'], number> {
  let unread = 0
  let waiting = 0
  for (const r of rows) {
    if (r.unreadCount > 0) unread += 1
    if (r.needsReply) waiting += 1
  }
  return { all: rows.length, unread, needs_reply: waiting }
}

/**
 * The rows a filter keeps, in the sort's order: newest first, or "window closing first": the conversations
 * waiting with the window still open, the soonest to close first, then the others newest first.
 */
export function applyFilter(
  rows: readonly InboxRow[],
  filter: ListFilter,
  sort: ListSort,
  now: number,
): readonly InboxRow[] {
  const kept = filter.kind === 'all' ? rows : rows.filter((r) => matchesFilter(filter, r))
  if (sort !== 'window') return kept
  const closing = (r: InboxRow) =>
    r.windowEndsAt !== undefined && r.windowEndsAt > now ? r.windowEndsAt : Infinity
  return [...kept].sort((a, b) => closing(a) - closing(b) || b.updatedAt - a.updatedAt)
}

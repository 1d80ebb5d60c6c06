/**
 * What the conversation list shows of each cached conversation once the server's needs-reply states are
 * joined to it (docs/product-rules.md#who-is-waiting), and the list's filters and sorts: one small union,
 * kept in the address (`?filter=unread`, `?filter=needs_reply`, `?filter=window_closed`, `?sort=window`), so
 * adding a filter is one more case here.
 */
import type { ConversationState } from '../../../core/contracts/conversation-states.ts'
import type { CachedConversation } from '../../../device/db/db.ts'
import { broadcastAfterCustomer, needsReply, shownUnread } from '../../../core/policy/needs-reply.ts'
import { STANDARD_WINDOW_MS, type WindowOptions, windowStatus } from '../../../core/policy/window.ts'

/** A list row: the cached conversation as the network gave it, and what the product adds to it. */
export interface InboxRow extends CachedConversation {
  needsReply: boolean
  /** The page's last message is a broadcast after the customer's words: its text, shown apart. */
  broadcastText?: string
  /** When the 24-hour window to answer closes (ms), for a conversation that needs a reply. */
  windowEndsAt?: number
}

/**
 * All, Unread, and the to-do split in two: "Needs reply", the waiting customers a reply reaches now (inside the
 * 24-hour window, or the 7 days of HUMAN_AGENT when the page has it; everyone under the legacy policy), and
 * "Window closed", the waiting customers only a template or a marketing message can reach.
 */
export type ListFilter = { kind: 'all' } | { kind: 'unread' } | { kind: 'needs_reply' } | { kind: 'window_closed' }
export type ListSort = 'newest' | 'window'

export const FILTERS: readonly ListFilter[] = [
  { kind: 'all' },
  { kind: 'unread' },
  { kind: 'needs_reply' },
  { kind: 'window_closed' },
]

type NamedFilter = Exclude<ListFilter['kind'], 'all'>

/** The filter named in the address (`filter`); anything else is All. */
export function parseFilter(search: { filter?: unknown }): ListFilter {
  for (const f of FILTERS) if (f.kind !== 'all' && search.filter === f.kind) return f
  return { kind: 'all' }
}

/** The address's parameters of a filter (All has none). */
export function filterSearch(filter: ListFilter): { filter?: NamedFilter } {
  return filter.kind === 'all' ? {} : { filter: filter.kind }
}

export function parseSort(search: { sort?: unknown }): ListSort {
  return search.sort === 'window' ? 'window' : 'newest'
}

export function sameFilter(a: ListFilter, b: ListFilter): boolean {
  return a.kind === b.kind
}

/** How a waiting customer can be answered now, under the page's messaging policy. */
export type Waiting = 'reply' | 'window_closed'

/**
 * Whether a reply reaches a waiting customer now (the chat's own rule, core/policy/window.ts), or the window
 * closed; undefined for a row nobody waits on. A waiting row with no known time of the customer's last
 * message is judged by the conversation's time: the network's newest message is then the customer's.
 */
export function waitingFor(row: InboxRow, now: number, options: WindowOptions): Waiting | undefined {
  if (!row.needsReply) return undefined
  const last = row.lastCustomerMessageAt ?? row.updatedAt
  return windowStatus(last, now, options).canSend ? 'reply' : 'window_closed'
}

export function matchesFilter(filter: ListFilter, row: InboxRow, now: number, options: WindowOptions): boolean {
  switch (filter.kind) {
    case 'all':
      return true
    case 'unread':
      return row.unreadCount > 0
    case 'needs_reply':
      return waitingFor(row, now, options) === 'reply'
    case 'window_closed':
      return waitingFor(row, now, options) === 'window_closed'
  }
}

/**
 * The row with its state: whether it needs a reply (the state's word, else the network's newest message is
 * the customer's), its unread count (`shownUnread`: the network zeroes its count when the page sends), and,
 * after a broadcast, the customer's own last words with the broadcast apart (the network shows the broadcast).
 */
export function toInboxRow(row: CachedConversation, state: ConversationState | undefined): InboxRow {
  const out: InboxRow = { ...row, needsReply: needsReply(state, row), unreadCount: shownUnread(row, state) }
  if (state?.customerAt) {
    const at = Date.parse(state.customerAt)
    out.lastCustomerMessageAt = Math.max(row.lastCustomerMessageAt ?? 0, at)
  }
  if (state && broadcastAfterCustomer(state)) {
    out.snippet = state.customerText ?? row.snippet
    out.broadcastText = state.broadcastText ?? ''
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
export function filterCounts(
  rows: readonly InboxRow[],
  now: number,
  options: WindowOptions,
): Record<ListFilter['kind'], number> {
  const counts = { all: rows.length, unread: 0, needs_reply: 0, window_closed: 0 }
  for (const r of rows) {
    if (r.unreadCount > 0) counts.unread += 1
    const waiting = waitingFor(r, now, options)
    if (waiting === 'reply') counts.needs_reply += 1
    else if (waiting === 'window_closed') counts.window_closed += 1
  }
  return counts
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
  options: WindowOptions,
): readonly InboxRow[] {
  const kept = filter.kind === 'all' ? rows : rows.filter((r) => matchesFilter(filter, r, now, options))
  if (sort !== 'window') return kept
  const closing = (r: InboxRow) =>
    r.windowEndsAt !== undefined && r.windowEndsAt > now ? r.windowEndsAt : Infinity
  return [...kept].sort((a, b) => closing(a) - closing(b) || b.updatedAt - a.updatedAt)
}

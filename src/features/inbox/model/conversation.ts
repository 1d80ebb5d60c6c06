/** Mapping of Graph conversations to the Dexie cache rows the list shows. */
import type { CachedConversation } from '../../../device/db/db.ts'
import type { Conversation } from '../../../core/graph/types.ts'
import {
  type ConversationHistoryItem,
  MAX_HISTORY_TEXT_CHARS,
  MAX_HISTORY_UNREAD,
} from '../../../core/contracts/conversation-states.ts'
import { SNIPPET_PREVIEW_CHARS } from '../../../core/constants/limits.ts'
import { cutText } from '../../../core/format/text.ts'
import { conversationCustomerMessageAt } from '../../../core/policy/window.ts'
import { coveredByList, listedOf } from '../../../shared/live/unread.ts'

export function conversationKey(pageId: string, id: string): string {
  return `${pageId}:${id}`
}

/**
 * The customer is the first participant (docs/product-rules.md#records-and-their-fields); the page itself is
 * never the customer.
 */
export function customerOf(conv: Conversation, pageId: string): { id: string; name: string } {
  const people = conv.participants?.data ?? []
  const customer = people.find((p) => p.id !== pageId) ?? people[0]
  return { id: customer?.id ?? '', name: customer?.name ?? '' }
}

/**
 * `lastCustomerMessageAt` comes from the newest messages nested in the list (the messaging policy's rule);
 * without them the list keeps an approximation that never overstates the window: the conversation's
 * updated_time when the newest message is known to be the customer's (it is unread: a page reply marks the
 * conversation read), else what an earlier read of the conversation's messages established. updated_time
 * alone is not used, since a page reply also moves it. The chat reads the latest messages on selection.
 *
 * The unread count is the network's, plus the live customer messages this device counted that the list does
 * not have yet (a list read before they arrived and stored after): a live message is counted once, whichever
 * of the list and the event comes first.
 */
export function toCachedConversation(
  pageId: string,
  conv: Conversation,
  previous?: CachedConversation,
): CachedConversation {
  const customer = customerOf(conv, pageId)
  const updatedAt = Date.parse(conv.updated_time) || 0
  const unreadCount = conv.unread_count ?? 0
  const listed = listedOf(conv, updatedAt)
  const carried = (previous?.liveUnread ?? []).filter((m) => !coveredByList(listed, m.id, m.at))
  const row: CachedConversation = {
    key: conversationKey(pageId, conv.id),
    pageId,
    id: conv.id,
    updatedAt,
    customerId: customer.id,
    customerName: customer.name,
    snippet: conv.snippet ?? '',
    unreadCount: unreadCount + carried.length,
    canReply: conv.can_reply ?? true,
    listed,
  }
  if (carried.length && previous && previous.updatedAt > updatedAt) {
    // The list was read before the newest live message: its time and snippet stay.
    row.updatedAt = previous.updatedAt
    row.snippet = previous.snippet
  }
  if (carried.length) row.liveUnread = carried
  const link = conversationLink(conv.link)
  if (link) row.link = link
  // Opened here since its last change: read, whatever the network's count says until it catches up.
  const seenAt = previous?.seenAt
  if (seenAt !== undefined) {
    row.seenAt = seenAt
    if (row.updatedAt <= seenAt) {
      row.unreadCount = 0
      delete row.liveUnread
    }
  }
  if (previous?.seenPending) row.seenPending = true
  const known = previous?.lastCustomerMessageAt
  const fromUnread = unreadCount > 0 ? updatedAt : undefined
  const fromMessages = conversationCustomerMessageAt(pageId, conv)
  const candidates = [known, fromUnread, fromMessages].filter((v): v is number => v !== undefined)
  if (candidates.length) row.lastCustomerMessageAt = Math.max(...candidates)
  return row
}

/**
 * What the network's list says of a conversation, for the server to keep as its state where it has none: the
 * customer's last message (its words when it is the newest, as the snippet), the network's unread count, and
 * the page's last message when it is newer than the customer's. Undefined without a customer.
 */
export function historyItem(pageId: string, conv: Conversation): ConversationHistoryItem | undefined {
  const customer = customerOf(conv, pageId)
  if (!/^\d{1,32}$/.test(customer.id)) return undefined
  const updatedAt = Date.parse(conv.updated_time) || 0
  const unread = conv.unread_count ?? 0
  const fromMessages = conversationCustomerMessageAt(pageId, conv)
  const customerAt = fromMessages ?? (unread > 0 ? updatedAt : undefined)
  const customerLast = customerAt !== undefined && customerAt >= updatedAt
  const iso = (ms: number) => new Date(ms).toISOString()
  return {
    customer_id: customer.id,
    customer_at: customerAt !== undefined && customerAt > 0 ? iso(customerAt) : null,
    customer_text: customerLast && conv.snippet ? conv.snippet.slice(0, MAX_HISTORY_TEXT_CHARS) : null,
    unread: customerLast ? Math.min(unread, MAX_HISTORY_UNREAD) : 0,
    page_at: !customerLast && updatedAt > 0 ? iso(updatedAt) : null,
  }
}

/** Where the network's relative conversation links point. */
const NETWORK_WEB_ORIGIN = 'https://www.facebook.com'

/**
 * The customer's name links to the conversation as the network gives it. A participant id is page-scoped, so
 * it is no profile address: without a link the name is not a link.
 */
function conversationLink(link: string | undefined): string | undefined {
  if (!link) return undefined
  try {
    const url = new URL(link, NETWORK_WEB_ORIGIN)
    return url.protocol === 'https:' ? url.href : undefined
  } catch {
    return undefined
  }
}

/** The first 25 letters of the snippet as a reader counts them (whole grapheme clusters), then "…". */
export function snippetPreview(snippet: string): string {
  return cutText(snippet, SNIPPET_PREVIEW_CHARS)
}

/**
 * What tells apart customers who share a name in one list: the end of each one's id ("#4821"), shown beside
 * the name of every row whose name another row also has. Other rows get nothing.
 */
export function sameNameTells(rows: readonly CachedConversation[]): Map<string, string> {
  const byName = new Map<string, CachedConversation[]>()
  for (const row of rows) {
    const key = row.customerName.trim().toLocaleLowerCase()
    const group = byName.get(key)
    if (group) group.push(row)
    else byName.set(key, [row])
  }
  const tells = new Map<string, string>()
  for (const group of byName.values()) {
    if (group.length < 2) continue
    const ids = group.map((r) => r.customerId)
    // The shortest end that differs between them, at least four digits.
    let size = 4
    while (size < 16 && new Set(ids.map((id) => id.slice(-size))).size < ids.length) size += 1
    for (const row of group) tells.set(row.id, `#${row.customerId.slice(-size)}`)
  }
  return tells
}

/** Mapping of Graph conversations to the Dexie cache rows the list shows. */
import type { CachedConversation } from '../../../shared/db/db.ts'
import type { Conversation } from '../../../shared/graph/types.ts'
import { SNIPPET_PREVIEW_CHARS } from '../../../shared/constants/limits.ts'

export function conversationKey(pageId: string, id: string): string {
  return `${pageId}:${id}`
}

/** The customer is the first participant (spec section 3); the page itself is never the customer. */
export function customerOf(conv: Conversation, pageId: string): { id: string; name: string } {
  const people = conv.participants?.data ?? []
  const customer = people.find((p) => p.id !== pageId) ?? people[0]
  return { id: customer?.id ?? '', name: customer?.name ?? '' }
}

/**
 * `lastCustomerMessageAt` is not in the conversation list. The list keeps what an earlier read of the
 * conversation's messages established (never guessed from updated_time, which a page reply also moves); the
 * chat reads the latest messages on selection and sets the exact value.
 */
export function toCachedConversation(
  pageId: string,
  conv: Conversation,
  previous?: CachedConversation,
): CachedConversation {
  const customer = customerOf(conv, pageId)
  const row: CachedConversation = {
    key: conversationKey(pageId, conv.id),
    pageId,
    id: conv.id,
    updatedAt: Date.parse(conv.updated_time) || 0,
    customerId: customer.id,
    customerName: customer.name,
    snippet: conv.snippet ?? '',
    unreadCount: conv.unread_count ?? 0,
    canReply: conv.can_reply ?? true,
  }
  if (previous?.lastCustomerMessageAt !== undefined)
    row.lastCustomerMessageAt = previous.lastCustomerMessageAt
  return row
}

/** The first 25 characters of the snippet, counted as the user sees them (no split surrogate pairs). */
export function snippetPreview(snippet: string): string {
  const chars = Array.from(snippet)
  return chars.length <= SNIPPET_PREVIEW_CHARS ? snippet : chars.slice(0, SNIPPET_PREVIEW_CHARS).join('')
}

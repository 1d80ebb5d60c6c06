/**
 * Who is waiting for an answer (docs/product-rules.md#who-is-waiting). The server's state of a conversation
 * decides when it has one (it saw the customer's messages and the page's answers through the webhooks); for a
 * conversation it has none of, the network's list decides: the newest message is the customer's.
 */
import type { ConversationState } from '../contracts/conversation-states.ts'

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) || 0 : 0)

/** Whether the customer's last message is after every answer and every "done" (the server's rule). */
export function stateNeedsReply(
  s: Pick<ConversationState, 'customerAt' | 'answeredAt' | 'doneAt'>,
): boolean {
  const customer = ms(s.customerAt)
  return customer > 0 && customer > ms(s.answeredAt) && customer > ms(s.doneAt)
}

/**
 * A conversation needs a reply: by its state when the server has one, else when the network's newest message
 * is the customer's (`lastCustomerMessageAt` at or after the conversation's time).
 */
export function needsReply(
  state: Pick<ConversationState, 'needsReply'> | undefined,
  network: { updatedAt: number; lastCustomerMessageAt?: number | undefined },
): boolean {
  if (state) return state.needsReply
  return network.lastCustomerMessageAt !== undefined && network.lastCustomerMessageAt >= network.updatedAt
}

/** The page's last message is a broadcast sent after the customer's last words: the row shows both apart. */
export function broadcastAfterCustomer(
  s: Pick<ConversationState, 'customerAt' | 'customerText' | 'answeredAt' | 'broadcastAt'>,
): boolean {
  const b = ms(s.broadcastAt)
  return b > 0 && s.customerText !== null && b >= ms(s.customerAt) && b > ms(s.answeredAt)
}

/**
 * The unread count a conversation shows: the network's, or the customer's messages the server counted since the
 * last answer or opening (the state's), whichever is more, unless a person answered or the conversation was
 * opened on this device since the customer last wrote (`seenAt`). The network zeroes its count whenever the page sends, a broadcast
 * too, while the customer's words stay unread.
 */
export function shownUnread(
  row: { unreadCount: number; seenAt?: number | undefined },
  state: Pick<ConversationState, 'customerAt' | 'answeredAt' | 'unread'> | undefined,
): number {
  const customer = ms(state?.customerAt)
  // Answered since, or opened here since: the network's count is the truth.
  if (!state || customer === 0 || customer <= ms(state.answeredAt)) return row.unreadCount
  const seen = (row.seenAt ?? 0) >= customer
  return seen ? row.unreadCount : Math.max(row.unreadCount, state.unread)
}

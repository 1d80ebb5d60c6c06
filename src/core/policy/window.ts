/**
 * The messaging windows of the network (docs/product-rules.md#the-24-hour-window): who may be messaged, how,
 * and why not. Pure, so the chat composer and the bulk wizard decide alike and tests pin the rules.
 */
import type { Conversation } from '../graph/types.ts'
import { HUMAN_AGENT_TAG, type MessagingPolicyName, type MessagingType } from './tags.ts'

export const HOUR_MS = 60 * 60 * 1000
/** The standard messaging window after the customer's last message. */
export const STANDARD_WINDOW_MS = 24 * HOUR_MS
/** How long a person may still reply with the HUMAN_AGENT tag. */
export const HUMAN_AGENT_WINDOW_MS = 7 * 24 * HOUR_MS
/** Bulk sends keep a margin inside the standard window: the activity time they use is an approximation. */
export const BULK_SAFETY_WINDOW_MS = 23 * HOUR_MS
/**
 * How many of a conversation's newest messages the conversation list asks for (nested in the same request),
 * so the window is judged from the customer's last message: a page reply moves `updated_time` too.
 */
export const WINDOW_MESSAGES_LIMIT = 10

/** The one tag legacy chat replies carry (docs/product-rules.md#chat-replies-and-human_agent). */
export const LEGACY_CHAT_TAG = 'CONFIRMED_EVENT_UPDATE'

export interface WindowOptions {
  policy: MessagingPolicyName
  humanAgentEnabled: boolean
  /** Length of the standard window; bulk passes BULK_SAFETY_WINDOW_MS. */
  standardWindowMs?: number
}

export type WindowReason =
  /** Inside the standard window: RESPONSE. */
  | 'standard'
  /** Between the standard window and 7 days, with the HUMAN_AGENT permission. */
  | 'human_agent'
  /** Between the standard window and 7 days, but the HUMAN_AGENT permission is not enabled. */
  | 'needs_human_agent'
  /** More than 7 days since the customer's last message. */
  | 'closed'
  /** No message from the customer is known. */
  | 'no_customer_message'
  /** The legacy policy: every reply tagged CONFIRMED_EVENT_UPDATE. */
  | 'legacy'

export interface WindowStatus {
  canSend: boolean
  messagingType?: MessagingType
  tag?: string
  reason: WindowReason
  /** When the current way of sending stops being allowed (ms since epoch), when it can. */
  closesAt?: number
}

export function windowStatus(
  lastCustomerMessageAt: number | undefined,
  now: number,
  options: WindowOptions,
): WindowStatus {
  if (options.policy === 'legacy') {
    return { canSend: true, messagingType: 'MESSAGE_TAG', tag: LEGACY_CHAT_TAG, reason: 'legacy' }
  }
  if (lastCustomerMessageAt === undefined || !Number.isFinite(lastCustomerMessageAt)) {
    return { canSend: false, reason: 'no_customer_message' }
  }
  const standardEnd = lastCustomerMessageAt + (options.standardWindowMs ?? STANDARD_WINDOW_MS)
  const humanEnd = lastCustomerMessageAt + HUMAN_AGENT_WINDOW_MS
  // A message time slightly in the future (clock skew) counts as just now.
  if (now < standardEnd)
    return { canSend: true, messagingType: 'RESPONSE', reason: 'standard', closesAt: standardEnd }
  if (now < humanEnd) {
    return options.humanAgentEnabled
      ? {
          canSend: true,
          messagingType: 'MESSAGE_TAG',
          tag: HUMAN_AGENT_TAG,
          reason: 'human_agent',
          closesAt: humanEnd,
        }
      : { canSend: false, reason: 'needs_human_agent' }
  }
  return { canSend: false, reason: 'closed' }
}

export interface WindowMessage {
  fromId: string
  /** ms since epoch */
  createdAt: number
}

/**
 * The newest message the customer (anyone but the page) sent, as ms since epoch; undefined when none is
 * known. The window counts from this, never from the conversation's updated_time, which page replies move.
 */
export function lastCustomerMessageAt(
  pageId: string,
  messages: readonly WindowMessage[],
): number | undefined {
  let latest: number | undefined
  for (const m of messages) {
    if (m.fromId && m.fromId !== pageId && (latest === undefined || m.createdAt > latest))
      latest = m.createdAt
  }
  return latest
}

/** The customer's last message among the newest messages nested in a Graph conversation. */
export function conversationCustomerMessageAt(
  pageId: string,
  conversation: Pick<Conversation, 'messages'>,
): number | undefined {
  const messages = (conversation.messages?.data ?? []).map((m) => ({
    fromId: m.from?.id ?? '',
    createdAt: Date.parse(m.created_time),
  }))
  return lastCustomerMessageAt(
    pageId,
    messages.filter((m) => Number.isFinite(m.createdAt)),
  )
}

/**
 * A `message` event into the local database: the message joins its conversation's cached history (keyed by
 * the message id, so the history fetch and a replayed event never make a second row), and the conversation
 * row takes the snippet, the time and the unread count, as the network's own list would show them.
 */
import { type CachedConversation, type CachedMessage, db } from '../../../device/db/db.ts'
import { coveredByList } from '../../../shared/live/unread.ts'
import type { MessageEvent } from './events.ts'

export interface MessageOutcome {
  /** The conversation is not cached on this device: its page's list must be read again. */
  unknown: boolean
  /** The updated row, when the conversation is cached. */
  conversation?: CachedConversation
  /** The message row; absent when it was already there (a duplicate or replayed event). */
  message?: CachedMessage
}

export function toLiveMessage(e: MessageEvent, conv: CachedConversation): CachedMessage {
  const customerName = e.customerName ?? conv.customerName
  return {
    key: `${e.pageId}:${e.mid}`,
    pageId: e.pageId,
    conversationId: conv.id,
    id: e.mid,
    createdAt: Date.parse(e.createdTime),
    fromId: e.fromPage ? e.pageId : e.customerId,
    fromName: e.fromPage ? '' : customerName,
    toId: e.fromPage ? e.customerId : e.pageId,
    text: e.text ?? '',
    imageUrls: (e.attachments ?? []).flatMap((a) => (a.type === 'image' && a.url ? [a.url] : [])),
  }
}

/**
 * The conversation after a message. An older message arriving late (reordered events) leaves the snippet and
 * time alone. A new customer message adds one unread, unless the chat is read on screen or the network's list
 * as last read already counts it (a list read after the message reached the network, stored before its event);
 * the page's own message (an echo of a reply sent anywhere) means the page has answered, so nothing is unread,
 * as the network counts.
 */
export function conversationAfter(
  conv: CachedConversation,
  message: CachedMessage,
  fresh: boolean,
  fromPage: boolean,
  inView: boolean,
): CachedConversation {
  // A message the list as last read covers is no newer than that list, whatever its time says (the list's
  // times are whole seconds).
  const covered = coveredByList(conv.listed, message.id, message.createdAt)
  const newest = !covered && message.createdAt >= conv.updatedAt
  const next: CachedConversation = { ...conv }
  if (newest) {
    next.updatedAt = message.createdAt
    next.snippet = message.text || (message.imageUrls.length ? '' : conv.snippet)
  }
  if (fromPage) {
    if (newest) {
      next.unreadCount = 0
      delete next.liveUnread
    }
  } else {
    next.lastCustomerMessageAt = Math.max(conv.lastCustomerMessageAt ?? 0, message.createdAt)
    const counted = (conv.liveUnread ?? []).some((m) => m.id === message.id)
    if (inView) {
      next.unreadCount = 0
      delete next.liveUnread
    } else if (fresh && !counted && !covered) {
      next.unreadCount = conv.unreadCount + 1
      next.liveUnread = [...(conv.liveUnread ?? []), { id: message.id, at: message.createdAt }]
    }
  }
  return next
}

export function findConversation(
  pageId: string,
  customerId: string,
): Promise<CachedConversation | undefined> {
  return db.conversations.where('[pageId+customerId]').equals([pageId, customerId]).first()
}

export async function applyMessage(
  e: MessageEvent,
  inView: (pageId: string, conversationId: string) => boolean,
): Promise<MessageOutcome> {
  return db.transaction('rw', db.conversations, db.messages, async () => {
    const conv = await findConversation(e.pageId, e.customerId)
    if (!conv) return { unknown: true }
    const message = toLiveMessage(e, conv)
    const fresh = !(await db.messages.get(message.key))
    const conversation = conversationAfter(conv, message, fresh, e.fromPage, inView(e.pageId, conv.id))
    if (fresh) await db.messages.put(message)
    await db.conversations.put(conversation)
    return { unknown: false, conversation, ...(fresh ? { message } : {}) }
  })
}

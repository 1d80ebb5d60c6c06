/**
 * The query keys the live stream invalidates, from the modules that define them: the inbox's and the chat's
 * key modules hold nothing else, so their screens' code stays out of this chunk.
 */
import { historyKeyRoot } from '../../features/chat/api/keys.ts'
import { conversationsQueryKey, inboxKeyRoot } from '../../features/inbox/api/keys.ts'
import { marketingKeyRoot, marketingQueryKey } from '../../shared/api/marketing.ts'

export const LIVE_KEYS = {
  conversations: conversationsQueryKey,
  marketing: marketingQueryKey,
  all: [inboxKeyRoot, historyKeyRoot, marketingKeyRoot],
}
/** The inbox clears an open conversation's unread count itself and tells the network (mark_seen). */
export const inboxMarksRead = () => false

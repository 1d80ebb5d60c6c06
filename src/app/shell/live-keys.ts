/**
 * The query keys the live stream invalidates, written out here (the same as the inbox's
 * `conversationsQueryKey` and the chat's `historyKey`, and the pages' marketing state `marketingKeyRoot`, and the utility templates' `templatesKey`) so
 * the inbox and chat code stay out of this chunk.
 */
export const LIVE_KEYS = {
  conversations: (pageId: string) => ['inbox', pageId, 'conversations'],
  marketing: (pageId: string) => ['marketing', pageId],
  templates: (pageId: string) => ['templates', pageId],
  all: [['inbox'], ['history'], ['marketing']],
}
/** The inbox clears an open conversation's unread count itself and tells the network (mark_seen). */
export const inboxMarksRead = () => false

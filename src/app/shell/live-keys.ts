/**
 * The query keys the live stream invalidates, written out here (the same as the inbox's
 * `conversationsQueryKey` and the chat's `historyKey`, and the pages' marketing state `marketingKeyRoot`, the bulk cards' `SERVER_JOBS_KEY`) so
 * the inbox and chat code stay out of this chunk.
 */
export const LIVE_KEYS = {
  conversations: (pageId: string) => ['inbox', pageId, 'conversations'],
  marketing: (pageId: string) => ['marketing', pageId],
  /** The owner's bulk jobs as the server records them (`SERVER_JOBS_KEY` of src/shared/bulk/server-jobs.ts). */
  serverJobs: ['bulk', 'server-jobs'],
  all: [['inbox'], ['history'], ['marketing'], ['bulk', 'server-jobs']],
}
/** The inbox clears an open conversation's unread count itself and tells the network (mark_seen). */
export const inboxMarksRead = () => false

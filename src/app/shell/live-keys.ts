/**
 * The query keys the live stream invalidates, from the modules that define them: the inbox's and the chat's
 * key modules (and the utility templates' and the server's bulk jobs') hold nothing else, so their screens' code
 * and the schemas of their answers stay out of this chunk.
 */
import { historyKeyRoot } from '../../features/chat/api/keys.ts'
import { conversationsQueryKey, inboxKeyRoot } from '../../features/inbox/api/keys.ts'
import { marketingKeyRoot, marketingQueryKey } from '../../shared/api/marketing.ts'
import { SERVER_JOBS_KEY } from '../../shared/bulk/keys.ts'
import { templatesKey } from '../../shared/utility/keys.ts'

export const LIVE_KEYS = {
  conversations: conversationsQueryKey,
  marketing: marketingQueryKey,
  /** The owner's bulk jobs as the server records them: patched by progress events, read again after a gap. */
  serverJobs: SERVER_JOBS_KEY,
  /** A page's utility templates, read again when the status webhook says a review ended. */
  templates: templatesKey,
  all: [inboxKeyRoot, historyKeyRoot, marketingKeyRoot, SERVER_JOBS_KEY],
}
/** The inbox clears an open conversation's unread count itself and tells the network (mark_seen). */
export const inboxMarksRead = () => false

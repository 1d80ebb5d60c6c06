/**
 * The history the sync reads, given to the server (docs/product-rules.md#who-is-waiting): each page of the
 * network's list, before it is stored, so the server keeps the state of conversations from before the page
 * was connected; the states it answers go to the local database with the others.
 */
import type { Conversation } from '../../../core/graph/types.ts'
import { isApiError } from '../../../shared/api/client.ts'
import { postConversationHistory } from '../../../shared/api/conversation-states.ts'
import { storeStates } from '../../../shared/live/conversation-states.ts'
import { historyItem } from '../model/conversation.ts'

/**
 * Reports one page of the list. A refusal of the server for this person or page (a 4xx other than 429) is no
 * reason to stop reading the inbox: it is logged and the page stored; a connection or server failure rejects,
 * so the walk reads the page again later.
 */
export async function reportHistory(pageId: string, page: readonly Conversation[]): Promise<void> {
  const items = page.flatMap((c) => historyItem(pageId, c) ?? [])
  if (!items.length) return
  try {
    await storeStates(await postConversationHistory(pageId, items))
  } catch (err) {
    if (isApiError(err) && err.status >= 400 && err.status < 500 && err.status !== 429) {
      console.error('the conversations history was refused', err.status)
      return
    }
    throw err
  }
}

/**
 * Who is waiting for an answer, through the product API (src/server/routes/conversation-states.ts): read
 * into the local database, the network's history of conversations kept, marked done, opened, "this person is replying" and "this person changed labels".
 */
import type { ConversationHistoryItem, ConversationState } from '../../core/contracts/conversation-states.ts'
import { api, silentApi } from './client.ts'

/** `GET /pages/:pageId/conversation-states`: every known state of the page's conversations. */
export async function fetchConversationStates(pageId: string): Promise<ConversationState[]> {
  const res = await silentApi<{ data?: ConversationState[] }>(
    `/pages/${encodeURIComponent(pageId)}/conversation-states`,
  )
  return res?.data ?? []
}

/**
 * Gives the server what the network's list says of these conversations (kept as their state where it has
 * none); answers the states of the customers named.
 */
export async function postConversationHistory(
  pageId: string,
  conversations: readonly ConversationHistoryItem[],
): Promise<ConversationState[]> {
  const res = await silentApi<{ data?: ConversationState[] }>(
    `/pages/${encodeURIComponent(pageId)}/conversation-history`,
    { method: 'POST', body: { conversations: [...conversations] } },
  )
  return res?.data ?? []
}

/** Marks the conversation done for everyone who manages the page; answers its new state. */
export async function postConversationDone(pageId: string, customerId: string) {
  const res = await api<{ data?: ConversationState }>(
    `/pages/${encodeURIComponent(pageId)}/conversation-states/${encodeURIComponent(customerId)}/done`,
    { method: 'POST' },
  )
  return res?.data
}

/**
 * Takes back this person's "done" while nothing newer happened in the conversation; answers its restored
 * state (a refusal, when it is too late, is told like every 406).
 */
export async function deleteConversationDone(pageId: string, customerId: string) {
  const res = await api<{ data?: ConversationState }>(
    `/pages/${encodeURIComponent(pageId)}/conversation-states/${encodeURIComponent(customerId)}/done`,
    { method: 'DELETE' },
  )
  return res?.data
}

/** Says a person opened the chat: its unread count is cleared for everyone. */
export async function postConversationSeen(pageId: string, customerId: string) {
  const res = await silentApi<{ data?: ConversationState | null }>(
    `/pages/${encodeURIComponent(pageId)}/conversation-states/${encodeURIComponent(customerId)}/seen`,
    { method: 'POST' },
  )
  return res?.data ?? undefined
}

/** Tells the page's other people that this one is writing a reply to the customer. */
export async function postReplying(pageId: string, customerId: string): Promise<void> {
  await silentApi(`/pages/${encodeURIComponent(pageId)}/replying`, {
    method: 'POST',
    body: { customer_id: customerId },
  })
}

/** Tells the page's other people that this one changed these customers' labels (none: the page's). */
export async function postLabelsChanged(pageId: string, customerIds: readonly string[]): Promise<void> {
  await silentApi(`/pages/${encodeURIComponent(pageId)}/labels-changed`, {
    method: 'POST',
    body: { customer_ids: [...customerIds] },
  })
}

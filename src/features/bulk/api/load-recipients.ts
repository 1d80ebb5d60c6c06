/**
 * Loads the bulk audience page by page (limit 50) until the last page or until cancelled; an error stops the
 * loading and marks the last page (docs/product-rules.md#bulk-wizard). Only conversations the page can reply
 * to count.
 */
import { PAGE_SIZE_BULK_RECIPIENTS } from '../../../core/constants/limits.ts'
import type { Conversation, GraphClient } from '../../../core/graph/types.ts'
import { conversationCustomerMessageAt } from '../../../core/policy/window.ts'

export interface BulkCustomer {
  recipientId: string
  name: string
  conversationId: string
  /** ms since epoch of the customer's last message (the window counts from it); undefined when unknown. */
  lastCustomerMessageAt: number | undefined
  /** ms since epoch of the conversation's last message (whoever wrote it). */
  updatedAt?: number
}

export function toCustomer(c: Conversation, pageId: string): BulkCustomer | undefined {
  const person = c.participants?.data?.[0]
  if (!c.can_reply || !person) return undefined
  return {
    recipientId: person.id,
    name: person.name,
    conversationId: c.id,
    lastCustomerMessageAt: conversationCustomerMessageAt(pageId, c),
    updatedAt: Date.parse(c.updated_time) || 0,
  }
}

export async function loadRecipients(
  graph: Pick<GraphClient, 'conversations'>,
  pageId: string,
  pageToken: string,
  onPage: (customers: BulkCustomer[]) => void,
  signal: AbortSignal,
): Promise<{ complete: boolean }> {
  let after: string | undefined
  const seen = new Set<string>()
  for (;;) {
    if (signal.aborted) return { complete: false }
    let page
    try {
      page = await graph.conversations(pageId, pageToken, { limit: PAGE_SIZE_BULK_RECIPIENTS, after })
    } catch (err) {
      console.error('loading bulk recipients failed', err)
      return { complete: true }
    }
    if (signal.aborted) return { complete: false }
    const customers = page.data
      .map((c) => toCustomer(c, pageId))
      .filter((c): c is BulkCustomer => !!c && !seen.has(c.recipientId))
    for (const c of customers) seen.add(c.recipientId)
    onPage(customers)
    after = page.paging?.next ? page.paging.cursors?.after : undefined
    if (!after) return { complete: true }
  }
}

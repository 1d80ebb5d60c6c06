/**
 * Loads the bulk audience from the network page by page (limit 50) until the last page or until cancelled,
 * each call taking its turn in the page's budget of the conversations endpoint (2 a second, shared with the
 * inbox's reads). An error stops
 * the loading where it was: the answer says so, with the cursor to go on from, and the wizard offers to
 * (docs/product-rules.md#bulk-wizard). Only conversations the page can reply to count.
 */
import { PAGE_SIZE_BULK_RECIPIENTS } from '../../../core/constants/limits.ts'
import type { Conversation, GraphClient } from '../../../core/graph/types.ts'
import { conversationCustomerMessageAt } from '../../../core/policy/window.ts'
import { paceConversationsCall } from '../../../shared/network/conversations-pacer.ts'

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

/** How a loading ended: the whole list, cancelled, or stopped by a failure with the cursor to go on from. */
export type LoadEnd =
  | { complete: true }
  | { complete: false; failed: false }
  | { complete: false; failed: true; after: string | undefined }

export interface LoadOptions {
  /** Where an earlier loading stopped (its cursor), and the customers it had, so none counts twice. */
  after?: string | undefined
  seen?: ReadonlySet<string>
  /** Waits for the call's turn in the page's budget (rejects once `signal` aborts). */
  pace?: (pageId: string, signal: AbortSignal) => Promise<void>
}

export async function loadRecipients(
  graph: Pick<GraphClient, 'conversations'>,
  pageId: string,
  pageToken: string,
  onPage: (customers: BulkCustomer[]) => void,
  signal: AbortSignal,
  options: LoadOptions = {},
): Promise<LoadEnd> {
  const { pace = paceConversationsCall } = options
  let after = options.after
  const seen = new Set(options.seen)
  for (;;) {
    if (signal.aborted) return { complete: false, failed: false }
    // One turn in the page's budget, shared with the inbox's reads of the same list.
    try {
      await pace(pageId, signal)
    } catch {
      return { complete: false, failed: false }
    }
    let page
    try {
      page = await graph.conversations(pageId, pageToken, { limit: PAGE_SIZE_BULK_RECIPIENTS, after })
    } catch (err) {
      console.error('loading bulk recipients failed', err)
      return { complete: false, failed: true, after }
    }
    if (signal.aborted) return { complete: false, failed: false }
    const customers = page.data
      .map((c) => toCustomer(c, pageId))
      .filter((c): c is BulkCustomer => !!c && !seen.has(c.recipientId))
    for (const c of customers) seen.add(c.recipientId)
    onPage(customers)
    after = page.paging?.next ? page.paging.cursors?.after : undefined
    if (!after) return { complete: true }
  }
}

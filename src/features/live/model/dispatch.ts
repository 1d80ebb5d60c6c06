/**
 * What each stream event does in this tab: the local database first (so an offline reload shows it), then
 * the screens are told (the in-tab channel of src/shared/live/changes.ts) and the TanStack Query caches
 * concerned are invalidated by key.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query'
import { patchServerJobs } from '../../../shared/bulk/server-jobs.ts'
import type { StoredMessage } from '../../../core/contracts/api.ts'
import { isChatInView, publishLiveChange } from '../../../shared/live/changes.ts'
import { noteReplying, storeState } from '../../../shared/live/conversation-states.ts'
import { noteLabelsChanged } from '../../../shared/live/labels.ts'
import { staleCustomerLabels } from '../../../shared/labels/store.ts'
import { applyMessage, findConversation } from './apply-message.ts'
import { applyServerProgress, heldHere } from './apply-progress.ts'
import { applyBulkReceipts, applyWatermark } from './apply-receipts.ts'
import type { LiveEvent } from './events.ts'

/**
 * The query keys the stream invalidates. The conversation list and the chat history own their keys; the
 * signed-in shell passes their factories here (a key is a prefix: every query under it is invalidated).
 */
export interface LiveQueryKeys {
  /** The conversation list of a page (read again for a message of a conversation not cached here). */
  conversations?: (pageId: string) => QueryKey
  /** The unread counts of a page (the sidebar's figure), when they are a query of their own. */
  pageUnread?: (pageId: string) => QueryKey
  /** A page's marketing state (its subscriber counts), read again when its subscriber list changed. */
  marketing?: (pageId: string) => QueryKey
  /** A page's utility templates, read again when a review ended (approved or rejected). */
  templates?: (pageId: string) => QueryKey
  /** The owner's bulk jobs as the server records them (the cards of the jobs this device does not hold). */
  serverJobs?: QueryKey
  /** What a gap in the stream makes stale: the lists, histories and unread counts of every page. */
  all?: QueryKey[]
}

export interface LiveDeps {
  queryClient?: QueryClient
  keys?: LiveQueryKeys
  /**
   * Marks a conversation read for the page (the network's mark_seen through the inbox's own call); without
   * it the conversation is only marked read on this device.
   */
  markSeen?: (pageId: string, conversationId: string) => void | Promise<void>
  /** Told when the network could not subscribe a page to the app (no live messages for it). */
  onSubscriptionFailed?: (pageId: string, error: string | undefined) => void
  /** Told when the network no longer vouches for the owner's role on a page (its events stop). */
  onPageAccessLost?: (pageId: string) => void
  inView?: (pageId: string, conversationId: string) => boolean
  /** Told when a send recorded elsewhere spent the allowance (the available count is read again). */
  onAllowanceSpent?: () => void
  /** The waits before reading a page's list again while a new customer's conversation is not in it yet. */
  unknownRetryMs?: readonly number[]
}

/**
 * The network's conversation list may lag a moment behind its webhook: a new customer's conversation may not
 * be in the list read at once. While the page's list is on screen it is read again after these waits, until
 * the conversation is there.
 */
export const UNKNOWN_RETRY_MS: readonly number[] = [2_000, 5_000]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Reads the page's list again until the customer's conversation is cached (or nobody shows that list). */
async function readListUntilListed(pageId: string, customerId: string, deps: LiveDeps): Promise<void> {
  const queryKey = deps.keys?.conversations?.(pageId)
  const queryClient = deps.queryClient
  if (!queryKey || !queryClient) return
  const waits = deps.unknownRetryMs ?? UNKNOWN_RETRY_MS
  for (let attempt = 0; ; attempt++) {
    // Resolves once the lists on screen were read again (and stored in the cache).
    await queryClient.invalidateQueries({ queryKey })
    if (await findConversation(pageId, customerId)) return
    // A list not on screen is read when it shows.
    if (!queryClient.getQueryCache().find({ queryKey, type: 'active' })) return
    const wait = waits[attempt]
    if (wait === undefined) return
    await sleep(wait)
  }
}

function invalidate(deps: LiveDeps, keys: (QueryKey | undefined)[]): void {
  for (const queryKey of keys) if (queryKey) void deps.queryClient?.invalidateQueries({ queryKey })
}

export async function dispatchLiveEvent(event: LiveEvent, deps: LiveDeps): Promise<void> {
  const k = deps.keys ?? {}
  switch (event.type) {
    case 'message': {
      const e = event.data
      const inView = deps.inView ?? isChatInView
      const outcome = await applyMessage(e, inView)
      if (outcome.unknown || !outcome.conversation) {
        publishLiveChange({ type: 'refetch', pageId: e.pageId })
        invalidate(deps, [k.pageUnread?.(e.pageId)])
        // Not awaited: the stream's next events do not wait for the list.
        void readListUntilListed(e.pageId, e.customerId, deps).catch((err: unknown) =>
          console.error("the page's conversation list could not be read again", err),
        )
        return
      }
      const conversation = outcome.conversation
      if (outcome.message)
        publishLiveChange({
          type: 'message',
          pageId: e.pageId,
          conversationId: conversation.id,
          row: outcome.message,
        })
      publishLiveChange({ type: 'conversation', pageId: e.pageId, row: conversation })
      invalidate(deps, [k.pageUnread?.(e.pageId)])
      if (!e.fromPage && outcome.message && inView(e.pageId, conversation.id))
        await deps.markSeen?.(e.pageId, conversation.id)
      return
    }
    case 'delivery':
      await applyWatermark(event.data.pageId, event.data.customerId, 'delivered', event.data.watermark)
      return
    case 'read':
      await applyWatermark(event.data.pageId, event.data.customerId, 'read', event.data.watermark)
      return
    case 'bulk_receipts': {
      const { pageId, messageId, delivered, read } = event.data
      await applyBulkReceipts(pageId, messageId, delivered, read)
      return
    }
    case 'bulk_progress': {
      // This device's own send: its database is the truth, and its sends already spoke for the allowance.
      if (await heldHere(event.data.messageId)) return
      await applyServerProgress(event.data.messageId, event.data)
      // Every device shows every job, whoever sends it: the server's list is patched, or read again when it
      // does not have the job yet.
      const key = k.serverJobs
      if (key && deps.queryClient) {
        let known = false
        deps.queryClient.setQueryData<StoredMessage[]>(key, (list) => {
          const next = list ? patchServerJobs(list, event.data) : undefined
          known = next !== undefined
          return next ?? list
        })
        if (!known) invalidate(deps, [key])
      }
      // Sends made elsewhere spent the allowance: the badge reads it again.
      deps.onAllowanceSpent?.()
      return
    }
    case 'page_subscription':
      if (!event.data.ok) deps.onSubscriptionFailed?.(event.data.pageId, event.data.error ?? undefined)
      return
    case 'page_access_lost':
      deps.onPageAccessLost?.(event.data.pageId)
      return
    case 'marketing_subscribers':
      // An opt-in, an opt-out, a token list read or marketing turned on or off: the counts shown are read again.
      invalidate(deps, [k.marketing?.(event.data.pageId)])
      return
    case 'template_status':
      // A template's review ended: its state (and a rejection's reason) is read again.
      invalidate(deps, [k.templates?.(event.data.pageId)])
      return
    case 'conversation_state':
      // The list and the chat read the states live from the local database.
      await storeState(event.data)
      return
    case 'replying':
      noteReplying(event.data)
      return
    case 'labels':
      // The open chat, the list's label filter and the page's labels read them again from the network.
      await staleCustomerLabels(event.data.pageId, event.data.customerIds)
      noteLabelsChanged(event.data)
      return
    case 'refetch':
      // Events were missed that the server no longer keeps: everything shown is read again.
      publishLiveChange({ type: 'refetch' })
      invalidate(deps, k.all ?? [])
      return
  }
}

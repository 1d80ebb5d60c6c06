/**
 * Scheduled sends: the owner picks a date and time in their time zone; the job waits (`scheduled`) with its
 * page token sealed, and can be edited or cancelled until it starts. At its time the queue starts it here: the
 * audience is computed then (the page's conversations, the 24-hour window evaluated at that moment), planned
 * against the allowance as the wizard plans it, written as the job's recipients, and the server sends it.
 */
import { knownCustomers, waitingCustomers } from '../repo/conversation-states.ts'
import { needsReply } from '../../core/policy/needs-reply.ts'
import { planAudience } from '../../core/bulk/allowance.ts'
import type { SenderGraph } from '../../core/bulk/ports.ts'
import type { GraphClient } from '../../core/graph/types.ts'
import { isInsideWindow } from '../../core/policy/messaging.ts'
import { conversationCustomerMessageAt } from '../../core/policy/window.ts'
import type { Store } from '../db/store.ts'
import { isPageTokenRefusal } from '../graph/graph-api.ts'
import { dropToken } from '../repo/message-page-tokens.ts'
import { insertRecipients } from '../repo/message-recipients.ts'
import {
  cancelScheduledMessage,
  createScheduledMessage,
  type NewScheduled,
  openScheduledJob,
  scheduledJob,
  stopJob,
  stopScheduled,
} from '../repo/messages.ts'
import { loadSubscription, toState } from '../repo/subscriptions.ts'
import { openToken } from './jobs.ts'
import type { OwnerNotifier, ServerSenderDeps } from './server-sender.ts'
import type { TokenBox } from './token-box.ts'

export interface ScheduleInput extends NewScheduled {
  page_token: string
}

/** Creates the scheduled job with its page token sealed; answers its id. */
export async function createScheduled(
  store: Store,
  box: TokenBox,
  userId: string,
  input: ScheduleInput,
): Promise<string> {
  return createScheduledMessage(store, userId, input, box.seal(input.page_token))
}

/** Cancels a job that has not started, and its token goes; answers undefined when it started meanwhile. */
export async function cancelScheduled(
  store: Store,
  userId: string,
  id: string,
): Promise<{ queue_job_id: string | null } | undefined> {
  const row = await cancelScheduledMessage(store, userId, id)
  if (row) await dropToken(store, id)
  return row
}

export interface StartDeps {
  store: Store
  box: TokenBox
  graph: SenderGraph & Pick<GraphClient, 'conversations'>
  notify: OwnerNotifier
  /** The moment the window is evaluated at (a test clock in tests). */
  now(): number
  /** Checks the owner's binding to the page when the job's page token is refused (see server-sender.ts). */
  recheckBinding?: ServerSenderDeps['recheckBinding']
}

/** Computes the audience now and turns the scheduled job into a server-held open job. */
export async function startScheduled(
  deps: StartDeps,
  id: string,
): Promise<'started' | 'not_scheduled' | 'empty'> {
  const job = await scheduledJob(deps.store, id)
  if (!job || job.state !== 'scheduled') return 'not_scheduled'
  const token = await openToken(deps.store, deps.box, id)
  if (!token) {
    await stopJob(deps.store, id, 'no_page_token')
    await deps.notify(job.user_id, { kind: 'needs_token', messageId: id, pageId: job.page_id })
    return 'empty'
  }
  const now = deps.now()
  // Customers waiting for an answer are left out unless the owner chose to include them (the wizard's rule).
  const known = job.include_waiting ? undefined : await knownCustomers(deps.store, job.page_id)
  const waiting = job.include_waiting ? undefined : await waitingCustomers(deps.store, job.page_id)
  const audience: { recipient_id: string; name: string; conversation_id: string }[] = []
  let after: string | undefined
  do {
    let page
    try {
      page = await deps.graph.conversations(job.page_id, token, {
        limit: 100,
        ...(after ? { after } : {}),
      })
    } catch (err) {
      // A refused page token: an owner who lost the page has the send stopped by the revocation itself.
      if (isPageTokenRefusal(err) && deps.recheckBinding) {
        const verdict = await deps.recheckBinding(job.user_id, job.page_id, token).catch(() => 'unknown')
        if (verdict === 'revoked') return 'not_scheduled'
      }
      throw err
    }
    for (const c of page.data) {
      if (c.can_reply === false) continue
      if (!isInsideWindow(conversationCustomerMessageAt(job.page_id, c), now)) continue
      const who = c.participants.data.find((p) => p.id !== job.page_id)
      if (who && known && waiting) {
        const network = {
          updatedAt: Date.parse(c.updated_time) || 0,
          lastCustomerMessageAt: conversationCustomerMessageAt(job.page_id, c),
        }
        if (needsReply(known.has(who.id) ? { needsReply: waiting.has(who.id) } : undefined, network)) continue
      }
      if (who) audience.push({ recipient_id: who.id, name: who.name ?? '', conversation_id: c.id })
    }
    after = page.paging?.next ? page.paging.cursors?.after : undefined
  } while (after)
  const plan = planAudience(audience.length, toState(await loadSubscription(deps.store, job.user_id)))
  const chosen = plan.refused ? [] : audience.slice(0, plan.count)
  if (chosen.length === 0) {
    await stopScheduled(deps.store, id, plan.refused ? 'no_messages' : 'no_recipients')
    await dropToken(deps.store, id)
    await deps.notify(job.user_id, {
      kind: 'stopped',
      messageId: id,
      reason: plan.refused ? 'no_messages' : 'no_recipients',
    })
    return 'empty'
  }
  const started = await openScheduledJob(
    deps.store,
    id,
    {
      total: chosen.length,
      brandedFrom: plan.brandedFrom,
      brandedAmount: plan.brandedFrom >= 0 ? chosen.length - plan.brandedFrom : 0,
    },
    async (tx) => {
      await insertRecipients(tx, id, chosen)
    },
  )
  return started ? 'started' : 'not_scheduled'
}

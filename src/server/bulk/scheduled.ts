/**
 * Scheduled sends: the owner picks a date and time in their time zone; the job waits (`scheduled`) with its
 * page token sealed, and can be edited or cancelled until it starts. At its time the queue starts it here: the
 * audience is computed then (the page's conversations, the 24-hour window evaluated at that moment), planned
 * against the allowance as the wizard plans it, written as the job's recipients, and the server sends it.
 */
import { knownCustomers, waitingCustomers } from '../repo/conversation-states.ts'
import { needsReply } from '../../shared/policy/needs-reply.ts'
import { planAudience } from '../../shared/bulk/allowance.ts'
import type { SenderGraph } from '../../shared/bulk/ports.ts'
import type { GraphClient } from '../../shared/graph/types.ts'
import { isInsideWindow } from '../../shared/policy/messaging.ts'
import { conversationCustomerMessageAt } from '../../shared/policy/window.ts'
import type { Store } from '../db/store.ts'
import { isPageTokenRefusal } from '../graph/graph-api.ts'
import { loadSubscription, toState } from '../repo/subscriptions.ts'
import { dropToken, openToken } from './jobs.ts'
import type { OwnerNotifier, ServerSenderDeps } from './server-sender.ts'
import type { TokenBox } from './token-box.ts'

export interface ScheduleInput {
  page_id: string
  message: string
  image_url?: string | null
  label: string
  tag?: string | null
  messaging_type: 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG'
  /** Epoch ms (the app converts the owner's local date and time). */
  scheduled_at: number
  time_zone: string
  page_token: string
  include_waiting?: boolean
}

export async function createScheduled(
  store: Store,
  box: TokenBox,
  userId: string,
  input: ScheduleInput,
): Promise<string> {
  return store.transaction(async (tx) => {
    const row = (
      await tx.query<{ id: number }>(
        `INSERT INTO messages (user_id, page_id, message_type_id, message, image_url, label, tag, total_messages,
            branded_messages_amount, state, sender, messaging_type, scheduled_at, time_zone, kind, include_waiting)
          VALUES ($1, $2, 1, $3, $4, $5, $6, 0, 0, 'scheduled', 'server', $7, to_timestamp($8::double precision / 1000), $9,
            'standard', $10)
          RETURNING id`,
        [
          userId,
          input.page_id,
          input.message,
          input.image_url ?? null,
          input.label,
          input.tag ?? null,
          input.messaging_type,
          input.scheduled_at,
          input.time_zone,
          input.include_waiting ?? false,
        ],
      )
    )[0]!
    await tx.query(
      'INSERT INTO message_page_tokens (message_id, user_id, page_id, sealed) VALUES ($1, $2, $3, $4)',
      [row.id, userId, input.page_id, box.seal(input.page_token)],
    )
    return String(row.id)
  })
}

/** Changes a job that has not started; answers false when it started (or was cancelled) meanwhile. */
export async function editScheduled(
  store: Store,
  userId: string,
  id: string,
  changes: {
    message?: string | undefined
    scheduled_at?: number | undefined
    time_zone?: string | undefined
  },
): Promise<{ queue_job_id: string | null } | undefined> {
  return (
    await store.query<{ queue_job_id: string | null }>(
      `UPDATE messages SET message = COALESCE($3, message),
          scheduled_at = COALESCE(to_timestamp($4::double precision / 1000), scheduled_at),
          time_zone = COALESCE($5, time_zone)
        WHERE id = $1 AND user_id = $2 AND state = 'scheduled' AND deleted_at IS NULL
        RETURNING (SELECT queue_job_id FROM messages WHERE id = $1) AS queue_job_id`,
      [id, userId, changes.message ?? null, changes.scheduled_at ?? null, changes.time_zone ?? null],
    )
  )[0]
}

export async function cancelScheduled(
  store: Store,
  userId: string,
  id: string,
): Promise<{ queue_job_id: string | null } | undefined> {
  const row = (
    await store.query<{ queue_job_id: string | null }>(
      `UPDATE messages SET state = 'cancelled' WHERE id = $1 AND user_id = $2 AND state = 'scheduled' AND deleted_at IS NULL
        RETURNING queue_job_id`,
      [id, userId],
    )
  )[0]
  if (row) await dropToken(store, id)
  return row
}

export async function setQueueJob(store: Store, id: string, queueJobId: string | null): Promise<void> {
  await store.query('UPDATE messages SET queue_job_id = $2 WHERE id = $1', [id, queueJobId])
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
  const job = (
    await deps.store.query<{ user_id: string; page_id: string; state: string; include_waiting: boolean }>(
      `SELECT user_id::text AS user_id, page_id, state, include_waiting FROM messages
        WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    )
  )[0]
  if (!job || job.state !== 'scheduled') return 'not_scheduled'
  const token = await openToken(deps.store, deps.box, id)
  if (!token) {
    await deps.store.query(
      `UPDATE messages SET state = 'stopped', stop_reason = 'no_page_token' WHERE id = $1`,
      [id],
    )
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
    await deps.store.query(
      `UPDATE messages SET state = 'stopped', stop_reason = $2 WHERE id = $1 AND state = 'scheduled'`,
      [id, plan.refused ? 'no_messages' : 'no_recipients'],
    )
    await dropToken(deps.store, id)
    await deps.notify(job.user_id, {
      kind: 'stopped',
      messageId: id,
      reason: plan.refused ? 'no_messages' : 'no_recipients',
    })
    return 'empty'
  }
  const started = await deps.store.transaction(async (tx) => {
    const moved = await tx.query(
      `UPDATE messages SET state = 'open', sender = 'server', total_messages = $2, branded_from = $3,
          branded_messages_amount = $4, lease = lease + 1, server_state = 'queued', recipients_listed = true
        WHERE id = $1 AND state = 'scheduled' RETURNING id`,
      [id, chosen.length, plan.brandedFrom, plan.brandedFrom >= 0 ? chosen.length - plan.brandedFrom : 0],
    )
    if (moved.length === 0) return false
    await tx.query(
      `INSERT INTO message_recipients (message_id, recipient_id, name, conversation_id)
         SELECT $1, r, n, c FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS t(r, n, c, o)
         ORDER BY o ON CONFLICT (message_id, recipient_id) DO NOTHING`,
      [
        id,
        chosen.map((r) => r.recipient_id),
        chosen.map((r) => r.name),
        chosen.map((r) => r.conversation_id),
      ],
    )
    return true
  })
  return started ? 'started' : 'not_scheduled'
}

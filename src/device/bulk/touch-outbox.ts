/**
 * Touches (one result per recipient) go through an outbox: queued in the same transaction as the result,
 * flushed right after, retried until the server acknowledges. The server keeps one result per
 * (message, recipient), so a repeated touch never spends the allowance twice.
 */
import type { TouchBody } from '../../core/contracts/api.ts'
import type { SubscriptionState } from '../../core/contracts/api.ts'
import type { TouchOutboxEntry } from '../db/db.ts'
import { outbox, recipientKey } from './records.ts'
import type { SenderApi } from '../../core/bulk/ports.ts'

export function touchEntry(
  jobId: string,
  recipientId: string,
  body: TouchBody,
  now: number,
): TouchOutboxEntry {
  return { key: recipientKey(jobId, recipientId), jobId, recipientId, body, createdAt: now, attempts: 0 }
}

export interface FlushResult {
  delivered: number
  /** The subscription after the last acknowledged touch, when one came back. */
  subscription?: SubscriptionState
  /** A touch was refused (406): nothing left and not branded. */
  exhausted: boolean
  /** Some entries stay queued (offline or server error). */
  pending: boolean
}

export async function flushTouches(api: SenderApi, jobId?: string): Promise<FlushResult> {
  const entries = await (jobId
    ? outbox.where('jobId').equals(jobId).sortBy('createdAt')
    : outbox.orderBy('createdAt').toArray())
  const result: FlushResult = { delivered: 0, exhausted: false, pending: false }
  for (const entry of entries) {
    await deliverTouch(api, entry, result)
    if (result.pending) break
  }
  return result
}

/**
 * Sends one queued touch; the entry leaves the outbox only once the server has answered. With `acknowledged`,
 * the entry's key is collected there instead of deleted at once, so the sender removes it inside its next
 * transaction (see settleAcknowledged); if that never happens the touch is simply sent again, which the
 * server ignores (one result per message and recipient).
 */
export async function deliverTouch(
  api: SenderApi,
  entry: TouchOutboxEntry,
  result: FlushResult = { delivered: 0, exhausted: false, pending: false },
  acknowledged?: string[],
): Promise<FlushResult> {
  try {
    const outcome = await api.touch(entry.jobId, entry.body as TouchBody)
    if (outcome.kind === 'ok') {
      result.subscription = outcome.response.subscription
      result.delivered++
    } else if (outcome.kind === 'refused') {
      result.exhausted = true
    }
    if (acknowledged) acknowledged.push(entry.key)
    else await outbox.delete(entry.key)
  } catch {
    await outbox.update(entry.key, { attempts: entry.attempts + 1 })
    result.pending = true
  }
  return result
}

/** Removes the acknowledged entries still in the outbox (before it is read, and when a run ends). */
export async function settleAcknowledged(acknowledged: string[]): Promise<void> {
  if (acknowledged.length === 0) return
  await outbox.bulkDelete(acknowledged)
  acknowledged.length = 0
}

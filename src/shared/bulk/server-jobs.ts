/**
 * The owner's bulk jobs as the server records them: the truth every device lists (`GET /api/v2/messages`).
 * The cards show the jobs this device holds from its own database (its cache and journal) and every other job
 * of the owner from this list; the live stream's progress events patch it in place (src/features/live), so a
 * job the server sends moves on every device at once.
 */
import { queryOptions } from '@tanstack/react-query'
import { silentApi } from '../api/client.ts'
import { messagesList, type StoredMessage } from '../../core/contracts/api.ts'
import type { BulkProgressEvent } from '../../core/contracts/events.ts'

import { SERVER_JOBS_KEY } from './keys.ts'

/** The TanStack Query key of the list (the cards read it; the live stream patches or invalidates it). */
export { SERVER_JOBS_KEY }

/** Every job of the owner that is not dismissed, oldest first. */
export async function listServerJobs(): Promise<StoredMessage[]> {
  return messagesList.parse(await silentApi('/messages?state=all')).data
}

/** The list as the cards read it. */
export function serverJobsQueryOptions() {
  return queryOptions({ queryKey: SERVER_JOBS_KEY, queryFn: listServerJobs })
}

/**
 * The list with one job's progress applied (counts only grow; an ended job takes the server's end), or
 * undefined when the list does not have that job (it must be read again).
 */
export function patchServerJobs(
  list: readonly StoredMessage[],
  event: BulkProgressEvent,
): StoredMessage[] | undefined {
  const i = list.findIndex((m) => m.id === event.messageId)
  if (i < 0) return undefined
  const job = list[i]!
  const ended = event.state === 'finished' || event.state === 'stopped'
  const next: StoredMessage = {
    ...job,
    ok_count: Math.max(job.ok_count, event.sent),
    ng_count: Math.max(job.ng_count, event.rejected),
    skipped_count: Math.max(job.skipped_count, event.skipped),
    total_messages: event.total,
    ...(ended
      ? { state: event.state as 'finished' | 'stopped', stop_reason: event.stopReason ?? job.stop_reason }
      : { sender: event.sender, ...(event.sender === 'server' ? { server_state: event.state } : {}) }),
    ...(event.marketing ? { marketing: event.marketing } : {}),
  }
  return list.map((m, k) => (k === i ? next : m))
}

/**
 * The stored bulk message record (docs/product-rules.md#product-api): create and delete (the sender touches
 * it, api-port.ts).
 */
import type { CreateMessageBody, ScheduleBody, StoredMessage } from '../../core/contracts/api.ts'
import { api, silentApi } from './client.ts'

/** `POST /api/v2/messages`: returns the record id. */
export async function createBulkMessage(body: CreateMessageBody): Promise<{ id: string }> {
  const res = await api<{ id?: string | number; data?: { id?: string | number } }>('/messages', {
    method: 'POST',
    body,
  })
  const id = res?.id ?? res?.data?.id
  if (id === undefined) throw new Error('messages answered without an id')
  return { id: String(id) }
}

/** `DELETE /api/v2/messages/{id}`: dismissing a progress card. */
export async function deleteBulkMessage(id: string): Promise<void> {
  await api(`/messages/${encodeURIComponent(id)}`, { method: 'DELETE' })
}

/** `POST /api/v2/messages/scheduled`: a send that starts later; the page token stays sealed on the server. */
export async function scheduleBulkMessage(body: ScheduleBody): Promise<{ id: string }> {
  const res = await api<{ id: string }>('/messages/scheduled', { method: 'POST', body })
  return { id: String(res.id) }
}

/** `DELETE /api/v2/messages/{id}/scheduled`: cancels a send that has not started. */
export async function cancelScheduledMessage(id: string): Promise<void> {
  await api(`/messages/${encodeURIComponent(id)}/scheduled`, { method: 'DELETE' })
}

/**
 * `PATCH /api/v2/messages/{id}/scheduled`: a new time or text before the send starts. Rejects with the
 * ApiError (422 with the errors map, 409 once it started) for the caller to show beside its fields.
 */
export async function editScheduledMessage(
  id: string,
  body: { message?: string; scheduled_at?: number; time_zone?: string },
): Promise<void> {
  await silentApi(`/messages/${encodeURIComponent(id)}/scheduled`, { method: 'PATCH', body })
}

/** The user's scheduled sends that have not started, soonest first. */
export async function listScheduledMessages(): Promise<StoredMessage[]> {
  const res = await api<{ data: StoredMessage[] }>('/messages?state=open')
  return (res?.data ?? [])
    .filter((m) => m.state === 'scheduled')
    .sort((a, b) => (a.scheduled_at ?? '').localeCompare(b.scheduled_at ?? ''))
}

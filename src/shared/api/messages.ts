/** The stored bulk message record (spec section 7): create and delete (the sender touches it, api-port.ts). */
import type { CreateMessageBody } from '../contracts/api.ts'
import { api } from './client.ts'

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

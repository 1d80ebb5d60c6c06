import { api } from '../../../shared/api/client.ts'

/** `POST /api/v2/user/confirm-brand-messages-usage`. */
export async function confirmBrandedMessages(): Promise<void> {
  await api('/user/confirm-brand-messages-usage', { method: 'POST', body: { use_branded_messages: true } })
}

import { silentApi } from '../../../shared/api/client.ts'

/** `POST /api/v2/user/subscriptions/cancel-subscription`. */
export async function cancelSubscription(reason: string): Promise<void> {
  await silentApi('/user/subscriptions/cancel-subscription', {
    method: 'POST',
    body: { cancellation_reason: reason },
  })
}

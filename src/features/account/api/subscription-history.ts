import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../shared/api/client.ts'
import { userScopedKey } from '../../../shared/api/user.ts'
import { type MySubscription, subscriptionsResponse } from '../../../core/contracts/api.ts'

/**
 * `GET /api/v2/user/subscriptions`: the user's subscriptions (docs/product-rules.md#product-api), newest
 * first.
 */
export async function getSubscriptionHistory(): Promise<MySubscription[]> {
  const body = await api<unknown>('/user/subscriptions')
  const list = subscriptionsResponse.parse(Array.isArray(body) ? { data: body } : body).data
  return [...list].sort((a, b) => Date.parse(b.created) - Date.parse(a.created))
}

export const subscriptionHistoryKey = userScopedKey('subscriptions')

export function subscriptionHistoryQueryOptions() {
  return queryOptions({ queryKey: subscriptionHistoryKey, queryFn: getSubscriptionHistory })
}

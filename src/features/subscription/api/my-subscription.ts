import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../shared/api/client.ts'
import { userScopedKey } from '../../../shared/api/user.ts'
import { type MySubscription, mySubscription } from '../../../core/contracts/api.ts'

export const mySubscriptionKey = userScopedKey('my-subscription')

/** `GET /api/v2/user/subscriptions/my-subscription`; null when the user has no paid subscription. */
export async function getMySubscription(): Promise<MySubscription | null> {
  const body = await api<unknown>('/user/subscriptions/my-subscription')
  const data = body && typeof body === 'object' && 'data' in body ? (body as { data: unknown }).data : body
  const parsed = mySubscription.safeParse(data)
  return parsed.success ? parsed.data : null
}

export function mySubscriptionQueryOptions() {
  return queryOptions({ queryKey: mySubscriptionKey, queryFn: getMySubscription })
}

/** The signed-in user's subscription state: one query key, one options factory, used everywhere. */
import { queryOptions } from '@tanstack/react-query'
import type { SubscriptionState } from '../../core/contracts/api.ts'
import { api } from './client.ts'
import { parseSubscription } from './guards.ts'
import { unwrap } from './session-fetch.ts'

export const userQueryKey = ['user'] as const

/** The key of another of the signed-in user's own reads (sessions, settings…): under the user's key. */
export const userScopedKey = <const Name extends string>(name: Name) => [...userQueryKey, name] as const

/**
 * `GET /api/v2/user`: the subscription state (docs/product-rules.md#records-and-their-fields). Accepts a bare
 * or `data`-wrapped body.
 */
export async function getUser(): Promise<SubscriptionState> {
  const body = await api<unknown>('/user')
  return parseSubscription(unwrap(body, 'subscription'))
}

export function userQueryOptions() {
  return queryOptions({ queryKey: userQueryKey, queryFn: getUser })
}

/**
 * `GET /api/v2/user/available-messages`: a bare number or one inside an object; it is read wherever it sits.
 */
export async function getAvailableMessages(): Promise<number> {
  const body = await api<unknown>('/user/available-messages')
  const value = unwrap(body, 'available_messages')
  if (typeof value === 'number') return value
  throw new Error('available-messages answered without a count')
}

import { queryOptions } from '@tanstack/react-query'
import { api, silentApi } from '../../../shared/api/client.ts'
import { subscriptionResponse, type Terms, termsResponse } from '../../../core/contracts/api.ts'
import { rememberSubscription } from '../../../shared/session/index.ts'

/** `GET /api/v2/term-and-condition`: the latest terms (a bare or `data`-wrapped body). */
export async function getTerms(): Promise<Terms> {
  const body = await api<unknown>('/term-and-condition')
  const data = body && typeof body === 'object' && 'data' in body ? (body as { data: unknown }).data : body
  return termsResponse.parse(data)
}

export function termsQueryOptions() {
  return queryOptions({ queryKey: ['terms'], queryFn: getTerms, staleTime: Infinity })
}

/**
 * `POST /api/v2/user/accept-terms`; the page reloads after it (docs/product-rules.md#terms-acceptance). The
 * saved session takes the answered subscription first, for a reload that starts offline.
 */
export async function acceptTerms(): Promise<void> {
  const body = await silentApi<unknown>('/user/accept-terms', { method: 'POST' })
  // The terms are accepted whatever the answer's shape: only a readable subscription is remembered.
  const answer = subscriptionResponse.safeParse(body)
  if (answer.success) rememberSubscription(answer.data.data.subscription)
}

/**
 * A page's marketing messages (`/api/v2/pages/{pageId}/marketing…`): its state, the ad accounts it may use,
 * turning them on and off, the subscriber list read from the network, and the weekly opt-in request record.
 * Tokens travel in the body of one call each and are never kept by the app. The calls that a screen answers
 * beside its own fields (turning on) reject silently with the ApiError (422 with the errors map).
 */
import { queryOptions } from '@tanstack/react-query'
import type { MarketingAdAccount, MarketingState, OptinCheckResponse } from '../contracts/marketing.ts'
import { api, silentApi } from './client.ts'

const base = (pageId: string) => `/pages/${encodeURIComponent(pageId)}/marketing`

/** Every marketing query of every page starts with this (the live stream invalidates it as a whole). */
export const marketingKeyRoot = ['marketing'] as const
export const marketingQueryKey = (pageId: string) => [...marketingKeyRoot, pageId] as const

/** `GET …/marketing` (read in the background by the page's screen: a failure shows where it is read). */
export async function getMarketingState(pageId: string): Promise<MarketingState> {
  return silentApi<MarketingState>(base(pageId))
}

export function marketingQueryOptions(pageId: string) {
  return queryOptions({ queryKey: marketingQueryKey(pageId), queryFn: () => getMarketingState(pageId) })
}

/** `POST …/marketing/ad-accounts`: the user's ad accounts, read with the user token for this one call. */
export async function listMarketingAdAccounts(
  pageId: string,
  userToken: string,
): Promise<MarketingAdAccount[]> {
  const res = await api<{ data: MarketingAdAccount[] }>(`${base(pageId)}/ad-accounts`, {
    method: 'POST',
    body: { user_token: userToken },
  })
  return res?.data ?? []
}

/** `PUT …/marketing`: turns marketing messages on; rejects with the ApiError (422: the errors map). */
export async function enableMarketing(
  pageId: string,
  body: { page_token: string; ad_account_id: string },
): Promise<MarketingState> {
  return silentApi<MarketingState>(base(pageId), { method: 'PUT', body })
}

/** `DELETE …/marketing`: turns them off (the subscribers stay). */
export async function disableMarketing(pageId: string): Promise<void> {
  await api(base(pageId), { method: 'DELETE' })
}

/** `POST …/marketing/sync`: reads the page's subscription tokens from the network again. */
export async function syncMarketingSubscribers(
  pageId: string,
  pageToken: string,
): Promise<{ active: number; stopped: number; added: number }> {
  return api(`${base(pageId)}/sync`, { method: 'POST', body: { page_token: pageToken } })
}

/** `POST …/marketing/optin-requests/check`: who may be asked now with this title. */
export async function checkOptinRequests(
  pageId: string,
  psids: string[],
  title: string,
): Promise<OptinCheckResponse> {
  return api<OptinCheckResponse>(`${base(pageId)}/optin-requests/check`, {
    method: 'POST',
    body: { psids, title },
  })
}

/** `POST …/marketing/optin-requests`: records requests the network accepted (the weekly limit). */
export async function recordOptinRequests(pageId: string, psids: string[], title: string): Promise<void> {
  await api(`${base(pageId)}/optin-requests`, { method: 'POST', body: { psids, title } })
}

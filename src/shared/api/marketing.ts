/**
 * The marketing messages of a page (`/api/v2/pages/{pageId}/marketing…`) as the bulk wizard reads them: the
 * page's state, its active subscribers, who may be asked to subscribe, the cost estimate, and the start of a
 * job that reaches subscribers. Subscription tokens never come here; the page token goes only to the start.
 * The page's settings also choose the ad account, turn them on and off and read the subscribers again; the
 * user token travels in the body of one call and is never kept.
 */
import { queryOptions } from '@tanstack/react-query'
import type {
  Budget,
  MarketingAdAccount,
  MarketingEstimate,
  MarketingState,
  OptinCheckResponse,
  OptinRequestMessage,
  RecordOptinRequestsBody,
  SentOptinRequest,
} from '../../core/contracts/marketing.ts'
import { api, silentApi } from './client.ts'

const page = (pageId: string) => `/pages/${encodeURIComponent(pageId)}/marketing`

/** `GET /api/v2/pages/{pageId}/marketing`. */
export async function getMarketingState(pageId: string, signal?: AbortSignal): Promise<MarketingState> {
  return silentApi<MarketingState>(page(pageId), signal ? { signal } : {})
}

/** `GET /api/v2/pages/{pageId}/marketing/subscribers`: the active subscribers' page-scoped ids. */
export async function getMarketingSubscribers(pageId: string, signal?: AbortSignal): Promise<string[]> {
  const res = await silentApi<{ psids?: string[] }>(`${page(pageId)}/subscribers`, signal ? { signal } : {})
  return res?.psids ?? []
}

/** `POST …/marketing/optin-requests/check`: who may be asked now with this title, and who not and why. */
export async function checkOptinRequests(
  pageId: string,
  psids: string[],
  title: string,
): Promise<OptinCheckResponse> {
  return silentApi<OptinCheckResponse>(`${page(pageId)}/optin-requests/check`, {
    method: 'POST',
    body: { psids, title },
  })
}

/** `GET …/marketing/estimate?count=N`: about what N delivered marketing messages cost. */
export async function getMarketingEstimate(pageId: string, count: number): Promise<MarketingEstimate> {
  return silentApi<MarketingEstimate>(`${page(pageId)}/estimate?count=${encodeURIComponent(String(count))}`)
}

/**
 * `POST /api/v2/messages/{id}/marketing`: creates the campaign and its message on the network and hands the
 * job to the server sender. Rejects with the ApiError (422 bad budget, 409 stale lease) for the caller to show.
 */
export async function startMarketingJob(
  id: string,
  body: { page_token: string; budget: Budget; lease: number },
): Promise<{ campaign_id: string; currency: string; estimate_minor: number; lease?: number }> {
  return silentApi(`/messages/${encodeURIComponent(id)}/marketing`, { method: 'POST', body })
}

/** Every marketing query of every page starts with this (the live stream invalidates it as a whole). */
export const marketingKeyRoot = ['marketing'] as const
export const marketingQueryKey = (pageId: string) => [...marketingKeyRoot, pageId] as const

/** The keys of a page's marketing reads: all under `marketingQueryKey(pageId)`, so one invalidation reaches them. */
export const marketingKeys = {
  state: marketingQueryKey,
  subscribers: (pageId: string) => [...marketingQueryKey(pageId), 'subscribers'] as const,
  adAccounts: (pageId: string) => [...marketingQueryKey(pageId), 'ad-accounts'] as const,
  estimate: (pageId: string, count: number) => [...marketingQueryKey(pageId), 'estimate', count] as const,
  /** An audience is named by its size and its ends: the ids in between follow from the same list. */
  optinCheck: (pageId: string, title: string, psids: readonly string[]) =>
    [...marketingQueryKey(pageId), 'optin-check', title, psids.length, psids[0], psids.at(-1)] as const,
}

export function marketingQueryOptions(pageId: string) {
  return queryOptions({
    queryKey: marketingKeys.state(pageId),
    queryFn: ({ signal }) => getMarketingState(pageId, signal),
  })
}

/** `POST …/marketing/ad-accounts`: the user's ad accounts, read with the user token for this one call. */
export async function listMarketingAdAccounts(
  pageId: string,
  userToken: string,
): Promise<MarketingAdAccount[]> {
  const res = await api<{ data: MarketingAdAccount[] }>(`${page(pageId)}/ad-accounts`, {
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
  return silentApi<MarketingState>(page(pageId), { method: 'PUT', body })
}

/** `DELETE …/marketing`: turns them off (the subscribers stay). */
export async function disableMarketing(pageId: string): Promise<void> {
  await api(page(pageId), { method: 'DELETE' })
}

/** `POST …/marketing/sync`: reads the page's subscription tokens from the network again. */
export async function syncMarketingSubscribers(
  pageId: string,
  pageToken: string,
): Promise<{ active: number; stopped: number; added: number; removed: number }> {
  return api(`${page(pageId)}/sync`, { method: 'POST', body: { page_token: pageToken } })
}

/**
 * `POST …/marketing/optin-requests`: records requests the network accepted, each with the message id its Send
 * API answered (the weekly limit, and the chats of every device show the message as a subscription request).
 */
export async function recordOptinRequests(
  pageId: string,
  messages: OptinRequestMessage[],
  title: string,
): Promise<void> {
  const body: RecordOptinRequestsBody = { messages, title }
  await api(`${page(pageId)}/optin-requests`, { method: 'POST', body })
}

/** `GET …/marketing/optin-requests?psid=…`: the opt-in request messages sent to this customer, newest first. */
export async function listOptinRequests(
  pageId: string,
  psid: string,
  signal?: AbortSignal,
): Promise<SentOptinRequest[]> {
  const path = `${page(pageId)}/optin-requests?psid=${encodeURIComponent(psid)}`
  const res = await silentApi<{ data?: SentOptinRequest[] }>(path, signal ? { signal } : {})
  return res?.data ?? []
}

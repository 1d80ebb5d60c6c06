/**
 * The marketing messages of a page (`/api/v2/pages/{pageId}/marketing…`) as the bulk wizard reads them: the
 * page's state, its active subscribers, who may be asked to subscribe, the cost estimate, and the start of a
 * job that reaches subscribers. Subscription tokens never come here; the page token goes only to the start.
 */
import type { Budget, MarketingEstimate, MarketingState, OptinCheckResponse } from '../contracts/marketing.ts'
import { silentApi } from './client.ts'

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

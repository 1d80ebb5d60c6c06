/**
 * Page registration and token extension (docs/product-rules.md#product-api), shared by the inbox and the bulk
 * sender.
 */
import type { PageBody, PageStanding, SubscriptionState } from '../../core/contracts/api.ts'
import type { PageWebhooks } from '../../core/contracts/events.ts'
import { api, silentApi } from './client.ts'

export interface RegisteredPage {
  subscription?: SubscriptionState
  /** Whether the network sends this page's new messages and receipts to Pagecast (live updates). */
  webhooks?: PageWebhooks
}

/** `POST /api/v2/page`: registers the page being opened; answers the subscription (trial and ban rules). */
export async function registerPage(body: PageBody): Promise<RegisteredPage> {
  const res = await api<{ data?: RegisteredPage }>('/page', { method: 'POST', body })
  return {
    subscription: res?.data?.subscription,
    ...(res?.data?.webhooks ? { webhooks: res.data.webhooks } : {}),
  }
}

/** `POST /api/v2/page/extend-token`: a long-lived page token, exchanged server-side. */
export async function extendPageToken(accessToken: string, pageId?: string): Promise<string> {
  const res = await api<{ accessToken?: string; access_token?: string; data?: { accessToken?: string } }>(
    '/page/extend-token',
    {
      method: 'POST',
      body: pageId ? { access_token: accessToken, page_id: pageId } : { access_token: accessToken },
    },
  )
  const token = res?.accessToken ?? res?.data?.accessToken ?? res?.access_token
  if (!token) throw new Error('extend-token answered without a token')
  return token
}

/** The query key of the standing of the owner's pages (home). */
export const pageStandingKey = (ids: readonly string[]) => ['page-standing', ids] as const

/**
 * `GET /api/v2/page/standing`: which of these pages the caller cannot use (banned, or access revoked); pages in
 * good standing are left out. A failure says nothing: the cards then look as they would.
 */
export async function pageStanding(ids: readonly string[]): Promise<Record<string, PageStanding>> {
  if (ids.length === 0) return {}
  const res = await silentApi<{ data?: Record<string, PageStanding> }>(
    `/page/standing?ids=${ids.slice(0, 200).join(',')}`,
  )
  return res?.data ?? {}
}

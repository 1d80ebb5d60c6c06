/**
 * Page registration and token extension (docs/product-rules.md#product-api), shared by the inbox and the bulk
 * sender.
 */
import type { PageBody, SubscriptionState } from '../contracts/api.ts'
import type { PageWebhooks } from '../contracts/events.ts'
import { api } from './client.ts'

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

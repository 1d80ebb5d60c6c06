/**
 * The marketing messages calls the server's routes make on the network: the user's ad accounts, one ad
 * account, and the page's subscription token list. `MarketingGraphPort` is the subset of the shared
 * marketing Graph client's interface these routes use; `createMarketingGraphPort` calls the Graph API the way
 * the shared client does (same URL, same error classification: every failure rejects with a `GraphError`).
 */
import { type $Fetch, type Fetch, createFetch } from 'ofetch'
import { GraphError, classifyGraphError, networkError } from '../../shared/graph/errors.ts'
import type { Page } from '../../shared/graph/types.ts'

export interface AdAccount {
  id: string
  account_id: string
  name: string
  currency: string
  account_status: number
  business_country_code?: string
}

export interface SubscriptionTokenEntry {
  notification_messages_token: string
  recipient_id: string
  token_expiry_timestamp?: number
  creation_timestamp?: number
  notification_messages_timezone?: string
  title?: string
  user_token_status?: string
}

/** An entry as the network lists it: the title is `topic_title`. */
type ListedToken = Omit<SubscriptionTokenEntry, 'recipient_id'> & {
  recipient_id?: string
  topic_title?: string
}

export interface MarketingGraphPort {
  /** Every page of `/me/adaccounts` (user token). */
  adAccounts(userToken: string): Promise<AdAccount[]>
  /** `GET /act_{id}` with the fields above. */
  adAccount(id: string, token: string): Promise<AdAccount>
  /** One page of `/{page-id}/notification_message_tokens`, always without duplicates. */
  subscriptionTokens(
    pageId: string,
    pageToken: string,
    opts?: { after?: string; limit?: number },
  ): Promise<Page<SubscriptionTokenEntry>>
}

/** The permissions a page token needs for marketing messages (asked in the per-page turn-on step). */
export const MARKETING_SCOPES = ['ads_management', 'paid_marketing_messages'] as const
/** Countries of the businesses the network offers marketing messages to (ISO 3166-1 alpha-2). */
export const MARKETING_BUSINESS_COUNTRIES: readonly string[] = [
  'AU', 'BR', 'CL', 'CO', 'HK', 'IN', 'ID', 'IL', 'MY', 'MX', 'NZ', 'PE', 'PH', 'SA', 'SG', 'TW', 'TH', 'AE', 'US', 'VN',
] // prettier-ignore
export function marketingAvailableIn(countryCode: string | undefined | null): boolean {
  return !!countryCode && MARKETING_BUSINESS_COUNTRIES.includes(countryCode.toUpperCase())
}
/** `account_status` of an ad account that can run campaigns. */
export const AD_ACCOUNT_ACTIVE = 1

export const AD_ACCOUNT_FIELDS = 'id,account_id,name,currency,account_status,business_country_code'
const AD_ACCOUNTS_PAGE = 100
const AD_ACCOUNTS_PAGES_MAX = 50

export interface MarketingGraphOptions {
  baseUrl: string
  version: string
  fetch?: Fetch | undefined
  timeoutMs?: number
}

type Query = Record<string, string | number | undefined>

export function createMarketingGraphPort(options: MarketingGraphOptions): MarketingGraphPort {
  const root = `${options.baseUrl.replace(/\/$/, '')}/${options.version}`
  const $fetch: $Fetch = createFetch({ fetch: options.fetch ?? ((...a) => globalThis.fetch(...a)) })

  async function get<T>(path: string, query: Query): Promise<T> {
    const clean = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''))
    let res: Awaited<ReturnType<typeof $fetch.raw>>
    try {
      res = await $fetch.raw(`${root}/${path}`, {
        method: 'GET',
        query: clean,
        retry: 0,
        ignoreResponseError: true,
        timeout: options.timeoutMs ?? 10_000,
        responseType: 'json',
      })
    } catch (err) {
      if (err instanceof GraphError) throw err
      const response = (err as { response?: Response }).response
      if (response) throw classifyGraphError(undefined, response.status, response.headers)
      throw networkError(err)
    }
    const data: unknown = res._data
    if (!res.ok || !data || typeof data !== 'object' || 'error' in data)
      throw classifyGraphError(data, res.status, res.headers)
    return data as T
  }

  const paged = async <T>(path: string, query: Query): Promise<Page<T>> => {
    const page = await get<Page<T>>(path, query)
    if (!Array.isArray(page.data)) throw classifyGraphError(undefined, 200)
    return page
  }

  return {
    async adAccounts(userToken) {
      const all: AdAccount[] = []
      let after: string | undefined
      for (let i = 0; i < AD_ACCOUNTS_PAGES_MAX; i++) {
        const page = await paged<AdAccount>('me/adaccounts', {
          fields: AD_ACCOUNT_FIELDS,
          limit: AD_ACCOUNTS_PAGE,
          after,
          access_token: userToken,
        })
        all.push(...page.data)
        after = page.paging?.cursors?.after
        if (!page.paging?.next || !after || page.data.length === 0) break
      }
      return all
    },
    adAccount: (id, token) =>
      get<AdAccount>(encodeURIComponent(id), { fields: AD_ACCOUNT_FIELDS, access_token: token }),
    async subscriptionTokens(pageId, pageToken, opts = {}) {
      const page = await paged<ListedToken>(`${encodeURIComponent(pageId)}/notification_message_tokens`, {
        do_not_return_duplicates: 'true',
        limit: opts.limit ?? 100,
        after: opts.after,
        access_token: pageToken,
      })
      // Tokens made from a Custom Audience name no person (no recipient_id): nobody to list.
      const data = page.data.flatMap(({ topic_title, ...t }): SubscriptionTokenEntry[] =>
        t.recipient_id
          ? [{ ...t, recipient_id: t.recipient_id, ...(topic_title ? { title: topic_title } : {}) }]
          : [],
      )
      return { ...page, data }
    },
  }
}

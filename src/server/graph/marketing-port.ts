/**
 * The marketing messages calls the server's routes make on the network: the user's ad accounts, one ad
 * account, and the page's subscription token list. `MarketingGraphPort` is the subset of the shared marketing
 * Graph client these routes use (tests replace it); `createMarketingGraphPort` is that client.
 */
import type { Fetch } from '../../core/graph/client.ts'
import { createMarketingGraph, type MarketingGraph } from '../../core/graph/marketing.ts'

export type { AdAccount, SubscriptionTokenEntry } from '../../core/graph/marketing.ts'
export { AD_ACCOUNT_ACTIVE, AD_ACCOUNT_FIELDS, MARKETING_SCOPES } from '../../core/graph/marketing.ts'
export { MARKETING_BUSINESS_COUNTRIES, marketingAvailableIn } from '../../core/marketing/regions.ts'

export type MarketingGraphPort = Pick<MarketingGraph, 'adAccounts' | 'adAccount' | 'subscriptionTokens'>

export interface MarketingGraphOptions {
  baseUrl: string
  version: string
  fetch?: Fetch | undefined
  timeoutMs?: number
}

export function createMarketingGraphPort(options: MarketingGraphOptions): MarketingGraphPort {
  return createMarketingGraph({
    baseUrl: options.baseUrl,
    version: options.version,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    timeoutMs: options.timeoutMs ?? 10_000,
  })
}

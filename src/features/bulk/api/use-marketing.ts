/**
 * The page's marketing messages as the wizard needs them: whether they are on, the ad account's currency, and
 * the active subscribers (a set of page-scoped ids to split the audience by). Read once per wizard opening;
 * while unknown or when the calls fail, nobody counts as a subscriber (the wizard then works as before).
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import {
  getMarketingEstimate,
  getMarketingSubscribers,
  marketingKeys,
  marketingQueryOptions,
} from '../../../shared/api/marketing.ts'
import type { MarketingState } from '../../../core/contracts/marketing.ts'

export interface PageMarketing {
  loading: boolean
  state: MarketingState | undefined
  /** Marketing messages are on for the page with an ad account. */
  on: boolean
  currency: string | undefined
  subscribers: ReadonlySet<string>
}

const EMPTY: ReadonlySet<string> = new Set()

/** The page's active subscribers, as a set of page-scoped ids. */
export function marketingSubscribersQueryOptions(pageId: string) {
  return queryOptions({
    queryKey: marketingKeys.subscribers(pageId),
    queryFn: async ({ signal }) => new Set(await getMarketingSubscribers(pageId, signal)),
  })
}

/** What marketing messages to `count` people would cost at most, in the ad account's currency. */
export function marketingEstimateQueryOptions(pageId: string, count: number) {
  return queryOptions({
    queryKey: marketingKeys.estimate(pageId, count),
    queryFn: () => getMarketingEstimate(pageId, count),
  })
}

export function usePageMarketing(pageId: string, windowed: boolean): PageMarketing {
  const state = useQuery({
    ...marketingQueryOptions(pageId),
    enabled: windowed,
    retry: false,
    staleTime: 30_000,
  })
  const on = !!state.data?.enabled && !!state.data.ad_account
  const subscribers = useQuery({
    ...marketingSubscribersQueryOptions(pageId),
    enabled: windowed && state.isSuccess,
    retry: false,
    staleTime: 30_000,
  })
  return {
    loading: windowed && (state.isPending || (state.isSuccess && subscribers.isPending)),
    state: state.data,
    on,
    currency: state.data?.ad_account?.currency,
    subscribers: subscribers.data ?? EMPTY,
  }
}

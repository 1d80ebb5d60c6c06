/**
 * The server sender's marketing part: the Graph calls it makes for a job's campaign (the subset of
 * `MarketingGraph`, src/core/graph/marketing.ts, that sending needs) and the subscriber token lookup, both
 * behind ports so tests use fakes; and the campaign's spend, read from the network at most every
 * SPEND_READ_EVERY_MS while a job sends and once when it ends.
 */
import type { BudgetKind } from '../../core/contracts/marketing.ts'
import type { MarketingGraph } from '../../core/graph/marketing.ts'
import type { Queryable } from '../db/store.ts'
import { setJobSpend } from '../repo/messages.ts'

/** The calls of the network's Marketing Message API a job needs (tests pass a fake). */
export type MarketingJobGraph = Pick<
  MarketingGraph,
  'createCampaign' | 'createMarketingMessage' | 'campaign' | 'sendMarketingMessage'
>

export interface MarketingSenderDeps {
  graph: MarketingJobGraph
  /** The subscriber's token now (never cached); null when they stopped, expired or are unknown. */
  subscriberToken(pageId: string, psid: string): Promise<string | null>
}

/** The campaign's spend is read at most this often while the job sends. */
export const SPEND_READ_EVERY_MS = 10_000

/** A campaign the network reports in one of these states sends nothing. */
const INACTIVE_STATUSES = new Set(['PAUSED', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED', 'DELETED', 'ARCHIVED'])

export function campaignInactive(status: string): boolean {
  return INACTIVE_STATUSES.has(status.toUpperCase())
}

export interface JobCampaign {
  id: string
  ad_account_id: string | null
  campaign_id: string | null
  budget_kind: BudgetKind | null
  budget_minor: number | null
  spend_minor: number | null
  spend_read_at: Date | null
}

/** Stores a spend reading (whole minor units, never below zero) taken at `at` (epoch ms). */
export async function storeSpend(db: Queryable, id: string, spendMinor: number, at: number): Promise<void> {
  await setJobSpend(db, id, Math.max(0, Math.round(spendMinor)), at)
}

/** Whether the job's total budget is spent by this reading (a daily budget renews; the network says when it is reached). */
export function budgetSpent(
  job: Pick<JobCampaign, 'budget_kind' | 'budget_minor'>,
  spendMinor: number,
): boolean {
  return job.budget_kind === 'total' && job.budget_minor !== null && spendMinor >= job.budget_minor
}

/**
 * What a failed step means for a bulk job, by the failure's class
 * (docs/product-rules.md#graph-error-classes), for both senders (the browser's worker and the server's):
 * pure, so the two keep the same rules and only apply them to their own storage.
 */
import { isMarketingErrorName, type MarketingErrorName } from '../../graph/errors.ts'
import type { GraphErrorKind } from '../../graph/types.ts'
import { TRANSIENT_MAX_ATTEMPTS } from './pacer.ts'

export type FailureAction =
  /** No answer came: the recipient stays uncertain (reconciled before any retry), the job waits for the network. */
  | 'uncertain'
  /** Throttled: the recipient goes back to pending, the job backs off. */
  | 'throttle'
  /** The page token failed: the recipient goes back to pending, the job waits for a fresh token. */
  | 'needs_token'
  /** A blocked page or a configuration error: the job stops and the owner is told. */
  | 'stop'
  /** The recipient is refused for good (outside the window, gone, or transient errors past the bound). */
  | 'reject'
  /** A transient error: the recipient goes back to pending and is tried again after a backoff. */
  | 'retry'
  /** A read (not a send) failed: wait and look again. */
  | 'wait'
  /** A recipient error outside a send (reading for reconciliation): nothing to change, look again. */
  | 'none'

/**
 * Marketing-message failures that end the whole job: the campaign, its message or its budget can carry no
 * further send (an inactive campaign, message or message set, an unknown message id, a token of another page,
 * a spent budget, …). Every other marketing failure concerns one recipient, or passes.
 */
const MARKETING_STOPS: ReadonlySet<MarketingErrorName> = new Set<MarketingErrorName>([
  'inactive_campaign',
  'invalid_message',
  'inactive_message_set',
  'inactive_message',
  'page_mismatch',
  'budget_spent',
  'daily_budget_reached',
  'account_spend_limit',
  'balance_empty',
  'payment_method_missing',
  'terms_not_accepted',
  'campaign_setup',
  'invalid_content',
  'region_unsupported',
  'page_permission',
  'feature_unavailable',
  'optin_restricted',
  'marketing_unknown',
  'region_unavailable',
  'permission_declined',
  'no_ad_account',
  'ad_account_inactive',
  'budget_too_small',
])

/** Failures of one subscriber or one opt-in request: that recipient is refused, the job goes on. */
const MARKETING_REJECTS: ReadonlySet<MarketingErrorName> = new Set<MarketingErrorName>([
  'invalid_token',
  'token_expired',
  'subscriber_stopped',
  'subscriber_region',
  'recipient_unavailable',
  'frequency_limit',
  'optin_weekly_limit',
  'optin_request_limit',
  'outside_window',
])

/**
 * @param sending whether the failed step was the send of a recipient still marked `sending`
 * @param failures how many of that recipient's sends answered a transient error, this one included. Only these
 *   count towards the bound: a throttled try, a try whose answer never came and a try refused for the page
 *   token say nothing about the recipient, and a job slowed by them must not reject anyone for it.
 * @param marketing the marketing-messages meaning of the failure (`GraphError.marketing`), when it has one
 */
export function failureAction(
  kind: GraphErrorKind,
  sending: boolean,
  failures: number,
  marketing?: MarketingErrorName,
): FailureAction {
  if (marketing && MARKETING_STOPS.has(marketing)) return 'stop'
  if (marketing && MARKETING_REJECTS.has(marketing)) return sending ? 'reject' : 'none'
  if (marketing === 'rate_limited') return 'throttle'
  switch (kind) {
    case 'network':
      return 'uncertain'
    case 'throttle':
      return 'throttle'
    case 'auth':
      return 'needs_token'
    case 'page_blocked':
    case 'config':
      return 'stop'
    case 'outside_window':
    case 'recipient_gone':
      return sending ? 'reject' : 'none'
    default:
      if (!sending) return 'wait'
      return failures >= TRANSIENT_MAX_ATTEMPTS ? 'reject' : 'retry'
  }
}

/** The refusal reason of a recipient when the weekly limit of opt-in requests with one title was reached. */
export const ASKED_THIS_WEEK = 'asked_this_week'
/** A marketing recipient without an active subscription when its turn came: nothing sent, nothing spent. */
export const NOT_SUBSCRIBED = 'marketing:not_subscribed'

/**
 * The reason a job stops or a recipient is refused for a marketing failure: `marketing:<name>` (the bulk
 * card shows `marketingErrorText(name)`), `asked_this_week` for the weekly opt-in limit. `undefined` keeps the
 * caller's own reason (a refusal outside the window reads as every window refusal).
 */
export function marketingReason(marketing: MarketingErrorName | undefined): string | undefined {
  if (!marketing || marketing === 'outside_window') return undefined
  if (marketing === 'optin_weekly_limit') return ASKED_THIS_WEEK
  return `marketing:${marketing}`
}

/** The marketing name of a reason written by `marketingReason`, else undefined. */
export function marketingOfReason(reason: string | undefined): MarketingErrorName | undefined {
  if (!reason?.startsWith('marketing:')) return undefined
  const name = reason.slice('marketing:'.length)
  return isMarketingErrorName(name) ? name : undefined
}

/** The marketing meaning carried by a failure (a GraphError's `marketing`), if any. */
export function marketingOf(err: unknown): MarketingErrorName | undefined {
  const name = err && typeof err === 'object' ? (err as { marketing?: unknown }).marketing : undefined
  return isMarketingErrorName(name) ? name : undefined
}

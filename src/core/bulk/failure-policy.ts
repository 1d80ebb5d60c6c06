/**
 * What a failed step means for a bulk job, by the failure's class
 * (docs/product-rules.md#graph-error-classes), for both senders (the browser's worker and the server's):
 * pure, so the two keep the same rules and only apply them to their own storage.
 */
import { failureKind } from '../graph/delivery.ts'
import { isMarketingErrorName, type MarketingErrorName } from '../graph/errors.ts'
import type { GraphErrorKind } from '../graph/types.ts'
import {
  backoff,
  pacingDelay,
  RETRY_BASE_MS,
  RETRY_MAX_MS,
  THROTTLE_BASE_MS,
  THROTTLE_MAX_MS,
  TRANSIENT_MAX_ATTEMPTS,
} from './pacer.ts'

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

/** A job stopped by a failure: the marketing reason, or `<class>:<the network's text>` (the card splits it). */
export function stopReasonOf(kind: GraphErrorKind, message: string, marketing?: MarketingErrorName): string {
  return marketingReason(marketing) ?? `${kind}:${message}`
}

/** What a failed step does to the recipient in flight and to the job, the same for both senders' stores. */
export interface FailurePlan {
  action: FailureAction
  kind: GraphErrorKind
  /**
   * The recipient in flight: kept uncertain (reconciled before any retry), sent back to pending, refused, or
   * not concerned (no send failed).
   */
  recipient: 'keep' | 'pending' | 'reject' | 'none'
  /** The job's stop reason (`stop`), or the recipient's refusal reason (`reject`). */
  reason?: string
  /** The recipient's transient failures, this one included (`retry`). */
  failures?: number
  /** How long the job waits before its next step; absent: it does not wait here (stop, needs a token). */
  waitMs?: number
  /** What the job shows while it waits, when not its running state. */
  state?: 'waiting_connection' | 'rate_limited'
}

export interface FailureContext {
  /** Whether the failed step was the send of a recipient still reserved (`sending`). */
  sending: boolean
  /** That recipient's transient failures before this one. */
  failures: number
  /** The failures in a row of the action's class, this one included (each sender keeps its own counts). */
  streak(action: FailureAction): number
  random(): number
  pacingScale: number
}

/**
 * The failure classes applied once: the action, what becomes of the recipient, the reason and the wait. Each
 * sender only writes the plan to its store. A failure outside a send (`none`, `wait`) backs off before the
 * next look, so a failing read never loops.
 */
export function planFailure(err: unknown, c: FailureContext): FailurePlan {
  const kind = failureKind(err)
  const message = err instanceof Error ? err.message : String(err)
  const marketing = marketingOf(err)
  const failures = c.failures + 1
  const action = failureAction(kind, c.sending, failures, marketing)
  const scaled = (streak: number) => backoff(streak, RETRY_BASE_MS, RETRY_MAX_MS, c.random, c.pacingScale)
  switch (action) {
    case 'uncertain':
      // Waiting for the network is not scaled: the connection comes back in its own time.
      return {
        action,
        kind,
        recipient: 'keep',
        state: 'waiting_connection',
        waitMs: backoff(c.streak(action), RETRY_BASE_MS, RETRY_MAX_MS, c.random),
      }
    case 'throttle': {
      const retryAfter = (err as { retryAfterMs?: number } | null)?.retryAfterMs
      const waitMs =
        retryAfter ?? backoff(c.streak(action), THROTTLE_BASE_MS, THROTTLE_MAX_MS, c.random, c.pacingScale)
      return { action, kind, recipient: 'pending', state: 'rate_limited', waitMs }
    }
    case 'needs_token':
      return { action, kind, recipient: 'pending' }
    case 'stop':
      return { action, kind, recipient: 'pending', reason: stopReasonOf(kind, message, marketing) }
    case 'reject':
      return {
        action,
        kind,
        recipient: 'reject',
        reason: marketingReason(marketing) ?? message,
        waitMs: pacingDelay(c.random, c.pacingScale),
      }
    case 'none':
    case 'wait':
      return { action, kind, recipient: 'none', waitMs: scaled(c.streak(action)) }
    case 'retry':
      return { action, kind, recipient: 'pending', failures, waitMs: scaled(failures) }
  }
}

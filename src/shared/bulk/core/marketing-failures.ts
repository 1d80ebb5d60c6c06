/**
 * What a failed marketing-message or opt-in send means for a bulk job, by the marketing error's name (the
 * Graph error's `marketing` field, MM-CONTRACT.md section 8): the campaign, its message, its budget or the ad
 * account failing stops the job (stop reason `marketing:<name>`; the recipient goes back to pending, so a
 * resume after the owner fixes it continues there); a person who can no longer be reached is rejected; the
 * network's own "try later" waits and retries. Undefined for a failure that is not a marketing one.
 */
import type { FailureAction } from './failure-policy.ts'
import { TRANSIENT_MAX_ATTEMPTS } from './pacer.ts'

const STOP: ReadonlySet<string> = new Set([
  'inactive_campaign',
  'invalid_message',
  'inactive_message_set',
  'inactive_message',
  'page_mismatch',
  'campaign_setup',
  'invalid_content',
  'payment_method_missing',
  'terms_not_accepted',
  'budget_spent',
  'daily_budget_reached',
  'account_spend_limit',
  'balance_empty',
  'region_unsupported',
  'page_permission',
  'feature_unavailable',
  'optin_restricted',
  'marketing_unknown',
])

const REJECT: ReadonlySet<string> = new Set([
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

const RETRY: ReadonlySet<string> = new Set(['campaign_not_ready', 'try_later'])

/** The marketing error name a failure carries (a GraphError's `marketing`), if any. */
export function marketingOf(error: unknown): string | undefined {
  const name = (error as { marketing?: unknown } | null)?.marketing
  return typeof name === 'string' && name !== '' ? name : undefined
}

export function marketingFailureAction(
  error: unknown,
  sending: boolean,
  attempts: number,
): FailureAction | undefined {
  const name = marketingOf(error)
  if (!name) return undefined
  if (STOP.has(name)) return 'stop'
  if (REJECT.has(name)) return sending ? 'reject' : 'none'
  if (name === 'rate_limited') return 'throttle'
  if (RETRY.has(name)) {
    if (!sending) return 'wait'
    return attempts >= TRANSIENT_MAX_ATTEMPTS ? 'reject' : 'retry'
  }
  return undefined
}

/** The weekly limit of opt-in requests with one title was reached for this person. */
export const ASKED_THIS_WEEK = 'asked_this_week'

/**
 * The reason a job stops or a recipient is refused for a marketing failure: `marketing:<name>`, or
 * `asked_this_week` for the weekly opt-in limit; undefined keeps the caller's own reason (a refusal outside
 * the window reads as every window refusal).
 */
export function marketingReason(name: string | undefined): string | undefined {
  if (!name || name === 'outside_window') return undefined
  if (name === 'optin_weekly_limit') return ASKED_THIS_WEEK
  return `marketing:${name}`
}

/** The reason a marketing recipient is rejected without a send: they are no longer subscribed. */
export const NOT_SUBSCRIBED = 'marketing:not_subscribed'

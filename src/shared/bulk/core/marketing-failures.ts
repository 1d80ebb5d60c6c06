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

/** The marketing error name a failure carries, if any. */
export function marketingErrorName(error: unknown): string | undefined {
  const name = (error as { marketing?: unknown } | null)?.marketing
  return typeof name === 'string' && name !== '' ? name : undefined
}

export function marketingFailureAction(
  error: unknown,
  sending: boolean,
  attempts: number,
): FailureAction | undefined {
  const name = marketingErrorName(error)
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

/** The stop reason of a job stopped by a marketing failure. */
export function marketingStopReason(name: string): string {
  return `marketing:${name}`
}

/** The reason a marketing recipient is rejected without a send: they are no longer subscribed. */
export const NOT_SUBSCRIBED = 'marketing:not_subscribed'

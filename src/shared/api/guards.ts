/**
 * Hand-written checks of the answers the start-up path reads (login, user, config). The zod contracts stay
 * the reference; these mirror them so the first screens load without the schema library.
 */
import type { LoginResponse, SubscriptionState } from '../../core/contracts/api.ts'

type Obj = Record<string, unknown>

export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)
const isOptionalText = (v: unknown) => v === undefined || v === null || typeof v === 'string'

export function isSubscriptionState(v: unknown): v is SubscriptionState {
  if (!isObject(v)) return false
  return (
    typeof v.access === 'boolean' &&
    (v.access_type === null || v.access_type === 'trial' || v.access_type === 'paid') &&
    typeof v.accepted_terms === 'boolean' &&
    typeof v.facebook_id === 'string' &&
    typeof v.is_unlimited === 'boolean' &&
    typeof v.unlimited_blocked === 'boolean' &&
    isInt(v.available_messages) &&
    isInt(v.subscriptions_messages) &&
    isInt(v.addons_messages) &&
    typeof v.use_branded_messages === 'boolean' &&
    isOptionalText(v.referral) &&
    isOptionalText(v.coupon)
  )
}

export function parseSubscription(v: unknown): SubscriptionState {
  if (!isSubscriptionState(v)) throw new TypeError('not a subscription state')
  return v
}

export function parseLoginResponse(v: unknown): LoginResponse {
  const data = isObject(v) ? v.data : undefined
  const user = isObject(data) ? data.user : undefined
  if (
    isObject(data) &&
    typeof data.token === 'string' &&
    isObject(user) &&
    typeof user.id === 'string' &&
    typeof user.facebook_id === 'string' &&
    typeof user.name === 'string' &&
    (user.email === null || typeof user.email === 'string') &&
    isSubscriptionState(user.subscription)
  )
    return v as LoginResponse
  throw new TypeError('not a login answer')
}

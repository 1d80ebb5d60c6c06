/**
 * Who sees the message badge, in which colour, the branded banner, the fair-use notice
 * (docs/product-rules.md#unlimited-and-fair-use, docs/product-rules.md#branded-messages).
 */
import {
  BADGE_DANGER_BELOW,
  BADGE_WARNING_AT_OR_BELOW,
  BRANDED_BANNER_THRESHOLD,
} from '../../../core/constants/limits.ts'
import type { SubscriptionState } from '../../../core/contracts/api.ts'

export type BadgeTone = 'primary' | 'warning' | 'danger'

type Rules = Pick<
  SubscriptionState,
  'access' | 'is_unlimited' | 'unlimited_blocked' | 'available_messages' | 'use_branded_messages'
>

/** Unlimited subscribers that are not blocked see no counter. */
export function showsMessageBadge(s: Rules): boolean {
  return !(s.is_unlimited && !s.unlimited_blocked)
}

export function badgeTone(available: number): BadgeTone {
  if (available < BADGE_DANGER_BELOW) return 'danger'
  if (available <= BADGE_WARNING_AT_OR_BELOW) return 'warning'
  return 'primary'
}

/** A user without access has nothing to send (the plans page is where they are): the offer waits for access. */
export function showsBrandedBanner(s: Rules): boolean {
  return s.access && !s.is_unlimited && !s.use_branded_messages && s.available_messages <= BRANDED_BANNER_THRESHOLD
}

export function showsFairUseNotice(s: Rules): boolean {
  return s.is_unlimited && s.unlimited_blocked
}

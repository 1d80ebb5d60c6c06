/** The allowance rules of the sender (docs/product-rules.md#the-allowance). Pure. */
import type { Subscription } from './ports.ts'

/** Appended to messages sent beyond the allowance when branded messages are authorised. */
export const BRANDED_FOOTER = '\n\n— Sent with Pagecast'

export type SendMode = 'normal' | 'branded' | 'stop'

export function isLimited(sub: Subscription): boolean {
  return !!sub && (!sub.is_unlimited || sub.unlimited_blocked)
}

/**
 * How the recipient at `order` is sent: those at or past `brandedFrom` carry the footer; when the allowance
 * reaches 0 mid-batch the footer starts (authorised) or the job stops.
 */
export function sendMode(
  order: number,
  brandedFrom: number,
  sub: Subscription,
  brandedAuthorised: boolean,
): SendMode {
  if (brandedFrom >= 0 && order >= brandedFrom) return 'branded'
  if (isLimited(sub) && sub!.available_messages <= 0) {
    return brandedAuthorised || sub!.use_branded_messages ? 'branded' : 'stop'
  }
  return 'normal'
}

export interface AudiencePlan {
  /** How many recipients go into the job. */
  count: number
  /** Index from which the branded footer applies (-1: none). */
  brandedFrom: number
  /** Sending is refused outright (0 available, not unlimited or blocked). */
  refused: boolean
  /** Only the first `count` will be reached (docs/product-rules.md#when-the-allowance-is-short). */
  truncated: boolean
}

/** What the wizard sends, given the audience size and the subscription. */
export function planAudience(audience: number, sub: Subscription): AudiencePlan {
  if (!isLimited(sub)) return { count: audience, brandedFrom: -1, refused: false, truncated: false }
  const available = Math.max(0, sub!.available_messages)
  if (available === 0) return { count: 0, brandedFrom: -1, refused: true, truncated: false }
  if (available >= audience) return { count: audience, brandedFrom: -1, refused: false, truncated: false }
  if (sub!.use_branded_messages)
    return { count: audience, brandedFrom: available, refused: false, truncated: false }
  return { count: available, brandedFrom: -1, refused: false, truncated: true }
}

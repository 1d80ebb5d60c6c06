/**
 * How a bulk send reaches each customer (docs/product-rules.md#bulk-reach). Under the current policy there
 * are two ways, beside the retired tags of the legacy policy:
 * - `standard`: inside the 24-hour window (with the bulk safety margin), a free RESPONSE message;
 * - `marketing`: outside the window, to an active subscriber of the page's marketing messages (the customer
 *   opted in), when the page has marketing messages on — a paid message of the page's campaign;
 * - `legacy_tag`: the legacy policy, unchanged: everyone, tagged.
 * Everyone else is out of reach, and the reason says why (no message from them and not subscribed, marketing
 * messages off for this page, …). Pure, so the wizard and its tests decide alike.
 */
import { isInsideWindow } from './messaging.ts'
import type { MessagingPolicyName } from './tags.ts'
import { LEGACY_CHAT_TAG } from './window.ts'

export type UnreachableWhy = 'outside_window' | 'no_customer_message' | 'marketing_off' | 'not_subscribed'

export type Reach =
  /** Inside the window: free, RESPONSE. */
  | { way: 'standard' }
  /** Outside the window, an active subscriber, marketing messages on for the page. */
  | { way: 'marketing' }
  /** The legacy policy (unchanged behaviour). */
  | { way: 'legacy_tag'; tag: string }
  | { way: 'none'; why: UnreachableWhy }

export interface ReachInput {
  /** The customer's last message (ms since epoch); undefined when none is known. */
  lastCustomerMessageAt?: number | undefined
  /** An active subscriber of the page's marketing messages. */
  subscribed: boolean
  /** The page has marketing messages turned on. */
  marketingOn: boolean
}

/**
 * The way to reach one customer. A subscriber is reached by marketing message only when the page has them on;
 * otherwise the reason is `marketing_off`. A customer who is not subscribed is out of reach outside the
 * window: `no_customer_message` when nothing from them is known, else `not_subscribed` with marketing on and
 * `outside_window` with it off (subscribing would not help then).
 */
export function reachFor(policy: MessagingPolicyName, input: ReachInput, now: number): Reach {
  if (policy === 'legacy') return { way: 'legacy_tag', tag: LEGACY_CHAT_TAG }
  const last = input.lastCustomerMessageAt
  if (isInsideWindow(last, now)) return { way: 'standard' }
  if (input.subscribed)
    return input.marketingOn ? { way: 'marketing' } : { way: 'none', why: 'marketing_off' }
  if (last === undefined || !Number.isFinite(last)) return { way: 'none', why: 'no_customer_message' }
  return { way: 'none', why: input.marketingOn ? 'not_subscribed' : 'outside_window' }
}

export interface AudienceSplit<T> {
  standard: T[]
  marketing: T[]
  none: { item: T; why: UnreachableWhy }[]
}

/**
 * Splits an audience into the three groups of the wizard, keeping the given order in each. Under the legacy
 * policy everyone is in `standard` (the tags reach them), as `splitByWindow` has always done.
 */
export function splitAudience<T>(
  policy: MessagingPolicyName,
  items: readonly T[],
  lastAt: (item: T) => number | undefined,
  subscribed: (item: T) => boolean,
  marketingOn: boolean,
  now: number,
): AudienceSplit<T> {
  const split: AudienceSplit<T> = { standard: [], marketing: [], none: [] }
  for (const item of items) {
    const reach = reachFor(
      policy,
      { lastCustomerMessageAt: lastAt(item), subscribed: subscribed(item), marketingOn },
      now,
    )
    if (reach.way === 'none') split.none.push({ item, why: reach.why })
    else if (reach.way === 'marketing') split.marketing.push(item)
    else split.standard.push(item)
  }
  return split
}

/** How many of the unreachable have each reason. */
export function countWhy<T>(none: AudienceSplit<T>['none']): Record<UnreachableWhy, number> {
  const counts: Record<UnreachableWhy, number> = {
    outside_window: 0,
    no_customer_message: 0,
    marketing_off: 0,
    not_subscribed: 0,
  }
  for (const n of none) counts[n.why]++
  return counts
}

/**
 * The messaging policy (docs/product-rules.md#messaging-policy): which content types a bulk send may use,
 * how a send is tagged, and who is inside the standard messaging window.
 * `current` is what the network enforces now; `legacy` is the three tags of the earlier network.
 * Under `current` there is a third way beside the window and the retired tags: marketing messages to the page's
 * opted-in subscribers outside the window, paid through the page's ad account (reach.ts decides per customer).
 */
import { LEGACY_TAGS, type MessagingPolicyName, type MessagingType } from './tags.ts'
import { BULK_SAFETY_WINDOW_MS, windowStatus } from './window.ts'

/** The standard window is 24 h after the customer's last message; bulk keeps an hour of safety. */
export const WINDOW_SAFETY_MS = BULK_SAFETY_WINDOW_MS

/** The in-window message of the current policy (no tag, sent as RESPONSE). */
export const STANDARD_CONTENT = 'STANDARD' as const
export type ContentType = typeof STANDARD_CONTENT | (typeof LEGACY_TAGS)[number]

export interface ContentOption {
  value: ContentType
  enabled: boolean
  /** Why a disabled option is disabled. */
  reason?: 'retired'
  /** What took a retired tag's place: a utility message from a template of this kind. */
  successor?: TagSuccessor
}

/** The utility message that replaces each retired tag (docs/utility-messages.md). */
export type TagSuccessor = 'event_reminder' | 'order_update' | 'account_update'
export const TAG_SUCCESSORS: Readonly<Record<(typeof LEGACY_TAGS)[number], TagSuccessor>> = {
  CONFIRMED_EVENT_UPDATE: 'event_reminder',
  POST_PURCHASE_UPDATE: 'order_update',
  ACCOUNT_UPDATE: 'account_update',
}

export function contentOptions(policy: MessagingPolicyName): ContentOption[] {
  if (policy === 'legacy') return LEGACY_TAGS.map((value) => ({ value, enabled: true }))
  return [
    { value: STANDARD_CONTENT, enabled: true },
    ...LEGACY_TAGS.map((value) => ({
      value,
      enabled: false,
      reason: 'retired' as const,
      successor: TAG_SUCCESSORS[value],
    })),
  ]
}

export function defaultContent(policy: MessagingPolicyName): ContentType {
  return policy === 'legacy' ? 'CONFIRMED_EVENT_UPDATE' : STANDARD_CONTENT
}

export interface SendTagging {
  messagingType: MessagingType
  tag?: string
}

/** A tag is applied only when it is one of the legacy tags and the policy allows it; otherwise the send is plain. */
export function tagForSend(policy: MessagingPolicyName, content: string): SendTagging {
  if (policy === 'legacy' && (LEGACY_TAGS as readonly string[]).includes(content)) {
    return { messagingType: 'MESSAGE_TAG', tag: content }
  }
  return { messagingType: 'RESPONSE' }
}

/** Inside the window (with the safety margin) counting from the customer's last message; unknown is outside. */
export function isInsideWindow(lastCustomerMessageAt: number | undefined, now: number): boolean {
  return (
    windowStatus(lastCustomerMessageAt, now, {
      policy: 'current',
      humanAgentEnabled: false,
      standardWindowMs: WINDOW_SAFETY_MS,
    }).reason === 'standard'
  )
}

/**
 * Splits recipients into those a bulk send may reach and those left out. Under `legacy` everyone is inside
 * (the tags were the way to reach people outside the window).
 */
export function splitByWindow<T>(
  policy: MessagingPolicyName,
  items: readonly T[],
  lastCustomerMessageAt: (item: T) => number | undefined,
  now: number,
): { inside: T[]; outside: T[] } {
  if (policy === 'legacy') return { inside: [...items], outside: [] }
  const inside: T[] = []
  const outside: T[] = []
  for (const item of items) (isInsideWindow(lastCustomerMessageAt(item), now) ? inside : outside).push(item)
  return { inside, outside }
}

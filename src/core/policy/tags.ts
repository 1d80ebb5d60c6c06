/**
 * Message tags of the 2023 network (docs/product-rules.md#legacy-message-tags); the current network refuses
 * all three.
 */
export const LEGACY_TAGS = ['CONFIRMED_EVENT_UPDATE', 'POST_PURCHASE_UPDATE', 'ACCOUNT_UPDATE'] as const
export type LegacyTag = (typeof LEGACY_TAGS)[number]
export const HUMAN_AGENT_TAG = 'HUMAN_AGENT'
export type MessagingType = 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG'
export type MessagingPolicyName = 'current' | 'legacy'

export function isLegacyTag(tag: string): tag is LegacyTag {
  return (LEGACY_TAGS as readonly string[]).includes(tag)
}

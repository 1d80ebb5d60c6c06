/**
 * The machine-readable reason (`code`) beside the message of every 406 refusal: the app says each in the
 * user's language, the English message is for logs and other clients. Apart from the API's schemas (api.ts), so the
 * app's first screens say a refusal without loading them.
 */
export const REFUSAL_CODES = [
  'page_banned',
  'trial_used',
  'no_messages',
  'no_access',
  'fair_use_blocked',
  'branded_not_authorised',
  'branded_not_needed',
  'branded_exhausted',
  'addon_needs_subscription',
  'nothing_to_cancel',
  'done_changed',
] as const
export type RefusalCode = (typeof REFUSAL_CODES)[number]

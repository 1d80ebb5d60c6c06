/**
 * Business constants (docs/product-rules.md#constants-and-limits) and those of the decisions
 * (docs/decisions.md).
 */

/**
 * Session cookie: its name contains the product name; path `/`. The server sets it for the session's idle
 * period and renews it with the session (`src/server/http/session-cookie.ts`).
 */
export const SESSION_COOKIE = 'pagecast_session'

export const PAGE_SIZE_CONVERSATIONS = 25
export const PAGE_SIZE_BULK_RECIPIENTS = 50
export const PAGE_SIZE_MESSAGES = 25
export const ACCOUNTS_LIMIT = 100
export const SNIPPET_PREVIEW_CHARS = 25

export const AVAILABLE_POLL_MS = 5_000
/** Random wait between two bulk sends; production never changes it. */
export const SEND_DELAY_MIN_MS = 800
export const SEND_DELAY_MAX_MS = 1_500

export const BRANDED_BANNER_THRESHOLD = 100
export const BADGE_WARNING_AT_OR_BELOW = 1_000
export const BADGE_DANGER_BELOW = 100

/** How long a notice that is not persistent stays before it closes by itself. */
export const NOTIFICATION_AUTO_CLOSE_MS = 4_000
/** Notices on screen at once; the oldest auto-closing one makes room for a new one. */
export const NOTIFICATIONS_MAX = 5

export const PAGE_SEARCH_THRESHOLD = 0.2

/** Trial: allowance and length for a new user's first subscription. */
export const TRIAL_MESSAGES = 500
export const TRIAL_DAYS = 7
/** Fair use for unlimited subscribers: sends per period before `unlimited_blocked`. */
export const UNLIMITED_FAIR_USE_LIMIT = 5_000_000

/** Referral coupon: 15% off for three months; affiliates earn 20% for 60 days, paid from $10. */
export const REFERRAL_DISCOUNT_PERCENT = 15
export const REFERRAL_DISCOUNT_MONTHS = 3
export const AFFILIATE_COMMISSION_PERCENT = 20
export const AFFILIATE_COMMISSION_DAYS = 60
export const AFFILIATE_MIN_PAYOUT_USD = 10

export const MESSAGE_TEXT_MAX = 2_000
export const UPLOAD_MAX_BYTES = 8 * 1024 * 1024

export const MessageType = { SINGLE: 1, MODAL: 2, BULK_MESSAGE: 3 } as const
export type MessageTypeId = (typeof MessageType)[keyof typeof MessageType]

export const ResultStatus = { OK: 'OK', NG: 'NG' } as const
export type ResultStatus = (typeof ResultStatus)[keyof typeof ResultStatus]

/** The longest custom label name the app lets the owner type. */
export const LABEL_NAME_MAX = 64

export const AUDIENCE_LABELS = ['all_labels', 'no_labels'] as const
export type AudienceLabel = (typeof AUDIENCE_LABELS)[number]

/**
 * The login permissions (docs/product-rules.md#login-permissions): the last two are needed today to read
 * conversations.
 */
export const REQUIRED_PERMISSIONS = [
  'business_management',
  'pages_messaging',
  'pages_show_list',
  'email',
  'pages_manage_metadata',
  'pages_read_engagement',
] as const

/** A page token a refresh could not give is asked for again after 5 s, doubling to 5 min (jittered). */
export const TOKEN_RETRY_BASE_MS = 5_000
export const TOKEN_RETRY_MAX_MS = 5 * 60_000

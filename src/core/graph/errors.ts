/**
 * The one classification of Graph failures, by code and subcode only (never by message text, which the
 * network localises and rewords). Sources: the Messenger Platform error-code reference and the Graph API
 * error-handling guide.
 */
import type { GraphErrorBody, GraphErrorKind } from './types.ts'

export interface GraphErrorInit {
  kind: GraphErrorKind
  message: string
  code?: number
  subcode?: number
  type?: string
  fbtraceId?: string
  httpStatus?: number
  retryAfterMs?: number
  isTransient?: boolean
  marketing?: MarketingErrorName
}

export class GraphError extends Error {
  readonly kind: GraphErrorKind
  readonly code: number | undefined
  readonly subcode: number | undefined
  readonly type: string | undefined
  readonly fbtraceId: string | undefined
  /** 0 when no HTTP answer arrived (network failure). */
  readonly httpStatus: number
  readonly retryAfterMs: number | undefined
  /** The marketing-messages meaning of the failure, when it has one (marketing.ts, failure-policy.ts). */
  readonly marketing: MarketingErrorName | undefined

  constructor(init: GraphErrorInit) {
    super(init.message)
    this.name = 'GraphError'
    this.kind = init.kind
    this.code = init.code
    this.subcode = init.subcode
    this.type = init.type
    this.fbtraceId = init.fbtraceId
    this.httpStatus = init.httpStatus ?? 0
    this.retryAfterMs = init.retryAfterMs
    this.marketing = init.marketing
  }

  /** The serialisable shape kept in NG results and logs. */
  toJSON(): Record<string, unknown> {
    return {
      kind: this.kind,
      message: this.message,
      code: this.code,
      error_subcode: this.subcode,
      type: this.type,
      fbtrace_id: this.fbtraceId,
      http_status: this.httpStatus,
      ...(this.marketing ? { marketing: this.marketing } : {}),
    }
  }
}

export function isGraphError(value: unknown): value is GraphError {
  return value instanceof GraphError
}

/** Application, user and page-level call budgets (Graph rate limiting). */
const THROTTLE_CODES = new Set([4, 17, 32, 613])
/** Token invalid or expired (190), session key invalid (102), user session missing (104). */
const AUTH_CODES = new Set([102, 104, 190])
/** Code 1 (unknown error) is transient only with a 5xx status; with 400 it is e.g. a bad client secret. */
const TRANSIENT_CODES = new Set([2, 1200])
/** "This person isn't available right now": the customer blocked the page or left. */
const RECIPIENT_GONE_SUBCODE = 1545041
/** "No matching user found": the recipient id is not (or no longer) a person of this page. */
const NO_MATCHING_USER_SUBCODE = 2018001
const OUTSIDE_WINDOW_SUBCODE = 2018278
/** The page is restricted from messaging (policy enforcement on the page). */
const PAGE_BLOCKED_SUBCODES = new Set([1893063, 2018028])

/**
 * What a failure of the Marketing Message API for Messenger means, by name. The network's errors
 * (namespace MARKETING_MESSAGES_DIRECT, codes 2300000…, and the opt-in request errors of the Messenger
 * error-code reference) come first, then the refusals Pagecast itself gives before asking the network.
 * Several documented codes share a name when they mean the same thing to the page's owner.
 */
export const MARKETING_NETWORK_ERROR_NAMES = [
  'inactive_campaign',
  'invalid_message',
  'inactive_message_set',
  'inactive_message',
  'invalid_token',
  'page_mismatch',
  'campaign_setup',
  'invalid_content',
  'payment_method_missing',
  'campaign_not_ready',
  'terms_not_accepted',
  'budget_spent',
  'daily_budget_reached',
  'account_spend_limit',
  'balance_empty',
  'region_unsupported',
  'subscriber_region',
  'subscriber_stopped',
  'token_expired',
  'frequency_limit',
  'recipient_unavailable',
  'page_permission',
  'feature_unavailable',
  'try_later',
  'rate_limited',
  'optin_weekly_limit',
  'optin_request_limit',
  'optin_restricted',
  'outside_window',
  'marketing_unknown',
] as const

/** Pagecast's own refusals, given before any call (marketing-messages turn-on and the budget step). */
export const MARKETING_PRODUCT_ERROR_NAMES = [
  'region_unavailable',
  'permission_declined',
  'no_ad_account',
  'ad_account_inactive',
  'budget_too_small',
  'marketing_off',
  'not_subscribed',
  'server_only',
] as const

export const MARKETING_ERROR_NAMES = [
  ...MARKETING_NETWORK_ERROR_NAMES,
  ...MARKETING_PRODUCT_ERROR_NAMES,
] as const
export type MarketingErrorName = (typeof MARKETING_ERROR_NAMES)[number]

export function isMarketingErrorName(value: unknown): value is MarketingErrorName {
  return typeof value === 'string' && (MARKETING_ERROR_NAMES as readonly string[]).includes(value)
}

type NetworkName = (typeof MARKETING_NETWORK_ERROR_NAMES)[number]

/** Every code of the API reference's error table (marketing-messages-on-messenger/api-reference). */
export const MARKETING_ERROR_CODES: Readonly<Record<number, NetworkName>> = {
  2300000: 'inactive_campaign',
  2300001: 'invalid_message',
  2300002: 'inactive_message_set',
  2300003: 'inactive_message',
  2300004: 'invalid_token',
  2300005: 'page_mismatch',
  2300006: 'campaign_setup',
  2300007: 'campaign_setup',
  2300008: 'campaign_setup',
  2300009: 'invalid_message',
  2300010: 'invalid_content',
  2300011: 'payment_method_missing',
  2300012: 'campaign_not_ready',
  2300013: 'terms_not_accepted',
  2300014: 'campaign_setup',
  2300015: 'budget_spent',
  2300016: 'campaign_setup',
  2300017: 'account_spend_limit',
  2300018: 'invalid_content',
  2300019: 'terms_not_accepted',
  2300020: 'campaign_setup',
  2300021: 'invalid_content',
  2300022: 'invalid_content',
  2300023: 'invalid_content',
  2300024: 'invalid_content',
  2300025: 'invalid_content',
  2300026: 'invalid_content',
  2300027: 'invalid_content',
  2300030: 'region_unsupported',
  2300031: 'region_unsupported',
  2300032: 'subscriber_region',
  2300033: 'campaign_not_ready',
  2300034: 'subscriber_stopped',
  2300035: 'frequency_limit',
  2300036: 'recipient_unavailable',
  2300037: 'token_expired',
  2300038: 'invalid_content',
  2300039: 'page_permission',
  2300040: 'feature_unavailable',
  2300041: 'campaign_not_ready',
  2300042: 'frequency_limit',
  2300043: 'frequency_limit',
  2300044: 'frequency_limit',
  2300046: 'invalid_content',
  2300047: 'invalid_content',
  2300048: 'invalid_content',
  2300052: 'recipient_unavailable',
  2300053: 'budget_spent',
  2300054: 'daily_budget_reached',
  2300055: 'try_later',
  2300056: 'account_spend_limit',
  2300057: 'try_later',
  2300058: 'balance_empty',
  2300059: 'balance_empty',
  2300060: 'try_later',
  2300061: 'try_later',
  2300062: 'try_later',
  2300063: 'try_later',
  2300064: 'campaign_setup',
  2300065: 'campaign_setup',
  2300066: 'terms_not_accepted',
  2300067: 'terms_not_accepted',
  2300068: 'try_later',
  2300069: 'terms_not_accepted',
  2300070: 'campaign_setup',
  2300071: 'invalid_content',
  2300072: 'invalid_content',
  2300073: 'invalid_content',
  2300074: 'invalid_content',
  2300075: 'invalid_content',
  2300076: 'invalid_content',
  2300077: 'invalid_content',
  2300078: 'rate_limited',
  2300079: 'rate_limited',
  2300080: 'rate_limited',
}

/** Opt-in requests and the older token API (Messenger Platform error-code reference), by code and subcode. */
const MARKETING_SUBCODES: Readonly<Record<string, NetworkName>> = {
  '613/1893016': 'optin_weekly_limit',
  '9/2018352': 'optin_request_limit',
  '10/1404170': 'optin_restricted',
  '10/1893015': 'subscriber_stopped',
  '4/2018354': 'frequency_limit',
}

const MARKETING_RANGE_START = 2_300_000
const MARKETING_RANGE_END = 2_300_999

/**
 * The marketing name of a Graph error, by its numbers only. The API reference gives each number as "Code";
 * it is recognised in `code` and, should the network nest it, in `error_subcode`.
 */
export function marketingErrorOf(
  code: number | undefined,
  subcode: number | undefined,
): NetworkName | undefined {
  for (const n of [code, subcode]) {
    if (n !== undefined && n >= MARKETING_RANGE_START && n <= MARKETING_RANGE_END) {
      return MARKETING_ERROR_CODES[n] ?? 'marketing_unknown'
    }
  }
  if (code !== undefined && subcode !== undefined) return MARKETING_SUBCODES[`${code}/${subcode}`]
  return undefined
}

/** The failure class of each marketing name: what the senders do (failure-policy.ts) follows from it. */
const MARKETING_KINDS: Readonly<Record<NetworkName, GraphErrorKind>> = {
  inactive_campaign: 'config',
  invalid_message: 'config',
  inactive_message_set: 'config',
  inactive_message: 'config',
  invalid_token: 'recipient_gone',
  page_mismatch: 'config',
  campaign_setup: 'config',
  invalid_content: 'config',
  payment_method_missing: 'config',
  campaign_not_ready: 'transient',
  terms_not_accepted: 'config',
  budget_spent: 'config',
  daily_budget_reached: 'config',
  account_spend_limit: 'config',
  balance_empty: 'config',
  region_unsupported: 'config',
  subscriber_region: 'recipient_gone',
  subscriber_stopped: 'recipient_gone',
  token_expired: 'recipient_gone',
  frequency_limit: 'recipient_gone',
  recipient_unavailable: 'recipient_gone',
  page_permission: 'config',
  feature_unavailable: 'config',
  try_later: 'transient',
  rate_limited: 'throttle',
  optin_weekly_limit: 'recipient_gone',
  optin_request_limit: 'recipient_gone',
  optin_restricted: 'page_blocked',
  outside_window: 'outside_window',
  marketing_unknown: 'config',
}

export function marketingKind(name: NetworkName): GraphErrorKind {
  return MARKETING_KINDS[name]
}

export function kindOf(
  code: number | undefined,
  subcode: number | undefined,
  httpStatus: number,
): GraphErrorKind {
  if (code === undefined) return httpStatus >= 500 || httpStatus === 0 ? 'transient' : 'config'
  if (code === 551 || subcode === RECIPIENT_GONE_SUBCODE) return 'recipient_gone'
  if (code === 100 && subcode === NO_MATCHING_USER_SUBCODE) return 'recipient_gone'
  if (code === 10 && subcode === OUTSIDE_WINDOW_SUBCODE) return 'outside_window'
  if (code === 368 || (subcode !== undefined && PAGE_BLOCKED_SUBCODES.has(subcode))) return 'page_blocked'
  if (THROTTLE_CODES.has(code) || (code >= 80001 && code <= 80014)) return 'throttle'
  if (AUTH_CODES.has(code) || code === 230) return 'auth'
  if (TRANSIENT_CODES.has(code) || (code === 1 && httpStatus >= 500)) return 'transient'
  // 100 invalid parameter, 200-299 permissions, 10 without a window subcode, 210 wrong token kind, …
  return httpStatus >= 500 ? 'transient' : 'config'
}

function asErrorBody(body: unknown): GraphErrorBody | undefined {
  if (typeof body === 'string') {
    try {
      return asErrorBody(JSON.parse(body))
    } catch {
      return undefined
    }
  }
  if (!body || typeof body !== 'object' || !('error' in body)) return undefined
  const err = (body as { error: unknown }).error
  if (!err || typeof err !== 'object') return undefined
  const e = err as Record<string, unknown>
  return {
    message: typeof e.message === 'string' ? e.message : '',
    type: typeof e.type === 'string' ? e.type : undefined,
    code: typeof e.code === 'number' ? e.code : undefined,
    error_subcode: typeof e.error_subcode === 'number' ? e.error_subcode : undefined,
    fbtrace_id: typeof e.fbtrace_id === 'string' ? e.fbtrace_id : undefined,
  }
}

/**
 * Minutes until access returns, from the `X-Business-Use-Case-Usage` header the network sends with
 * throttling errors (`{"<page-id>":[{"estimated_time_to_regain_access":N,…}]}`), else `Retry-After` seconds.
 */
export function retryAfterFromHeaders(headers: Pick<Headers, 'get'> | undefined): number | undefined {
  if (!headers) return undefined
  const usage = headers.get('x-business-use-case-usage')
  if (usage) {
    try {
      const parsed = JSON.parse(usage) as Record<string, { estimated_time_to_regain_access?: number }[]>
      const minutes = Math.max(
        ...Object.values(parsed).flatMap((list) => list.map((u) => u.estimated_time_to_regain_access ?? 0)),
      )
      if (Number.isFinite(minutes) && minutes > 0) return minutes * 60_000
    } catch {
      // malformed header: fall through to Retry-After
    }
  }
  const retryAfter = Number(headers.get('retry-after'))
  return Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined
}

/** Pure: a Graph error body (or none) and the HTTP status become a classified GraphError. */
export function classifyGraphError(
  body: unknown,
  httpStatus: number,
  headers?: Pick<Headers, 'get'>,
): GraphError {
  const parsed = asErrorBody(body)
  const raw =
    body && typeof body === 'object' && 'error' in body
      ? (body as { error: Record<string, unknown> }).error
      : {}
  const marketing = parsed ? marketingErrorOf(parsed.code, parsed.error_subcode) : undefined
  const kind = marketing
    ? marketingKind(marketing)
    : parsed
      ? raw.is_transient === true && parsed.code !== undefined && !THROTTLE_CODES.has(parsed.code)
        ? 'transient'
        : kindOf(parsed.code, parsed.error_subcode, httpStatus)
      : httpStatus >= 500
        ? 'transient'
        : 'config'
  return new GraphError({
    kind,
    message: parsed?.message || (httpStatus ? `HTTP ${httpStatus}` : 'Empty Graph response'),
    code: parsed?.code,
    subcode: parsed?.error_subcode,
    type: parsed?.type,
    fbtraceId: parsed?.fbtrace_id,
    httpStatus,
    retryAfterMs: kind === 'throttle' ? retryAfterFromHeaders(headers) : undefined,
    marketing,
  })
}

/** The same failure with a marketing meaning the numbers alone do not carry (e.g. the window, on an opt-in request). */
export function withMarketing(err: GraphError, marketing: MarketingErrorName): GraphError {
  return new GraphError({
    kind: err.kind,
    message: err.message,
    code: err.code,
    subcode: err.subcode,
    type: err.type,
    fbtraceId: err.fbtraceId,
    httpStatus: err.httpStatus,
    retryAfterMs: err.retryAfterMs,
    marketing,
  })
}

export function networkError(cause: unknown): GraphError {
  const message = cause instanceof Error ? cause.message : 'Network request failed'
  return new GraphError({ kind: 'network', message, httpStatus: 0 })
}

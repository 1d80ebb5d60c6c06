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
  const kind = parsed
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
  })
}

export function networkError(cause: unknown): GraphError {
  const message = cause instanceof Error ? cause.message : 'Network request failed'
  return new GraphError({ kind: 'network', message, httpStatus: 0 })
}

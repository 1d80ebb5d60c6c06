/**
 * The one way to the product API (`/api/v2`, docs/product-rules.md#product-api), for the tabs and the bulk
 * worker alike: the headers every call carries, one error class, and one rule of success (a 2xx status).
 * Plain `fetch` and no UI, so the worker and the start-up path use it without the notifications of
 * `client.ts`.
 */
import { ownTask } from '../network/own-task.ts'

export const API_BASE = '/api/v2'

/** What every failed API call rejects with; status 0 when no answer came (offline, DNS, connection cut). */
export class ApiError extends Error {
  readonly status: number
  readonly body: unknown
  /** How long the server asked to wait before the next call (its `Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined
  constructor(status: number, body: unknown, message: string, retryAfterMs?: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.body = body
    this.retryAfterMs = retryAfterMs
  }
}

/** The one rule of success: a 2xx status. */
export const isSuccess = (status: number): boolean => status >= 200 && status < 300

export interface ApiCall {
  method?: string
  /** An object is sent as JSON; FormData and strings as they are. */
  body?: unknown
  headers?: HeadersInit
  signal?: AbortSignal
  cache?: RequestCache
  /** The request outlives the page (a hand-over sent while the tab closes). */
  keepalive?: boolean
  /**
   * This call's own way of sending, in place of `fetch` (an upload that reports its progress goes through
   * XMLHttpRequest: src/shared/api/upload.ts).
   */
  send?: typeof fetch
}

export interface ApiTransport {
  /** Where the API lives ('' for this origin; the worker passes the tab's origin). */
  origin?: string
  /** The bearer; none is sent when it gives nothing or the call sets Authorization itself. */
  token?: () => string | null | undefined
  fetch?: typeof fetch
}

export interface ApiAnswer {
  status: number
  statusText: string
  /** The parsed JSON, the text when it is not JSON, null when empty. */
  body: unknown
  /** The answer's `Retry-After` (seconds or a date) in milliseconds from now, when it has one. */
  retryAfterMs?: number
}

function encode(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined) return undefined
  if (typeof body === 'string' || body instanceof FormData || body instanceof Blob) return body
  headers.set('Content-Type', 'application/json')
  return JSON.stringify(body)
}

function retryAfter(res: Response): number | undefined {
  const value = res.headers.get('retry-after')?.trim()
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

async function decode(res: Response): Promise<unknown> {
  if (res.status === 204) return null
  const text = await res.text().catch(() => '')
  if (text === '') return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** Any answer, whatever its status; rejects with an ApiError of status 0 when none came (aborts rethrown). */
export async function apiAnswer(
  path: string,
  call: ApiCall = {},
  transport: ApiTransport = {},
): Promise<ApiAnswer> {
  const headers = new Headers(call.headers)
  headers.set('Accept', 'application/json')
  headers.set('X-Requested-With', 'XMLHttpRequest')
  const token = transport.token?.()
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`)
  const body = encode(call.body, headers)
  const origin = (transport.origin ?? '').replace(/\/$/, '')
  const send = transport.fetch ?? call.send ?? fetch.bind(globalThis)
  let res: Response
  // A request that must outlive the page (sent as it closes) goes at once: the page has no next task.
  if (!call.keepalive) await ownTask()
  try {
    res = await send(`${origin}${API_BASE}${path}`, {
      method: call.method ?? 'GET',
      headers,
      ...(body === undefined ? {} : { body }),
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.cache ? { cache: call.cache } : {}),
      ...(call.keepalive ? { keepalive: true } : {}),
    })
  } catch (err) {
    if (err instanceof Error && err.name === 'AbortError') throw err
    throw new ApiError(0, undefined, err instanceof Error ? err.message : 'Network error')
  }
  const wait = retryAfter(res)
  return {
    status: res.status,
    statusText: res.statusText,
    body: await decode(res),
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
  }
}

/** The body of a successful answer; any other status rejects with an ApiError. */
export async function apiRequest<T = unknown>(
  path: string,
  call: ApiCall = {},
  transport: ApiTransport = {},
): Promise<T> {
  const answer = await apiAnswer(path, call, transport)
  if (!isSuccess(answer.status)) throw failure(answer)
  return answer.body as T
}

export function failure(answer: ApiAnswer): ApiError {
  return new ApiError(
    answer.status,
    answer.body,
    answer.statusText || `HTTP ${answer.status}`,
    answer.retryAfterMs,
  )
}

/**
 * Which notifications an API failure produces (docs/product-rules.md#error-catalogue). Pure, so every rule is
 * unit-tested. The transport speaks its own technical words ("Failed to fetch"): a failure with no answer,
 * and a failure whose answer carries no message of the server's, are said in the owner's language instead.
 */
import type { NotificationInput } from '../notifications/model.ts'

/** The catalogue's words in the owner's language. */
export interface CatalogueWords {
  warning: string
  pleaseCheck: string
  internalError: string
  /** No answer came: the device or the server is unreachable. */
  noConnection: string
  noConnectionMessage: string
  /** A 5xx: the server could not finish the call. */
  serverFailed: string
  /** A 429. */
  tooManyRequests: string
  /** Any other status, named by its number. */
  refused: (status: number) => string
}

/** What the server answers to a failure it did not expect (src/server/http/errors.ts): never its internals. */
const SERVER_GENERIC_MESSAGE = 'Internal Error'

export interface FailedResponse {
  /** 0 when the request never got an answer (network failure). */
  status: number
  body: unknown
  /** The transport's own message, used when the body carries none. */
  fallbackMessage: string
}

function bodyMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
    return body.message
  return undefined
}

function bodyCode(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'code' in body && typeof body.code === 'string') return body.code
  return undefined
}

function bodyErrors(body: unknown): string[] {
  if (!body || typeof body !== 'object' || !('errors' in body)) return []
  const errors = body.errors
  if (!errors || typeof errors !== 'object') return []
  return Object.values(errors as Record<string, unknown>).flatMap((v) =>
    Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : typeof v === 'string' ? [v] : [],
  )
}

/** A refusal's own notice by its code (translated text, and whether it stays); undefined when unknown. */
export type RefusalNotice = (
  code: string,
) => Pick<NotificationInput, 'message' | 'persistent' | 'action'> | undefined

/**
 * 401 returns nothing to show: the session is cleared and the login screen says the rest. A 406 with a known
 * `code` is said in the user's language; the server's English message is only the fallback. No answer at all
 * (status 0) is a lost connection, never an "Internal Error".
 */
export function notificationsFor(
  failure: FailedResponse,
  titles: CatalogueWords,
  refusal: RefusalNotice = () => undefined,
): NotificationInput[] {
  const { status, body, fallbackMessage } = failure
  if (status === 401) return []
  if (status === 0)
    return [{ kind: 'warning', title: titles.noConnection, message: titles.noConnectionMessage }]
  if (status === 406) {
    const code = bodyCode(body)
    const known = code ? refusal(code) : undefined
    return [
      { kind: 'warning', title: titles.warning, message: bodyMessage(body) ?? fallbackMessage, ...known },
    ]
  }
  if (status === 422) {
    const messages = bodyErrors(body)
    const list = messages.length > 0 ? messages : [bodyMessage(body) ?? fallbackMessage]
    return list.map((message) => ({ kind: 'warning', title: titles.pleaseCheck, message }))
  }
  // The server's own message, as the catalogue says; a failure without one, or with only the server's generic
  // "Internal Error" (the title already says it), is said in the owner's words.
  const own = bodyMessage(body)
  const said = own !== undefined && own !== SERVER_GENERIC_MESSAGE ? own : undefined
  const message =
    status === 429
      ? titles.tooManyRequests
      : (said ?? (status >= 500 ? titles.serverFailed : titles.refused(status)))
  return [{ kind: 'error', title: titles.internalError, message }]
}

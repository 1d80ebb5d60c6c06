/**
 * Which notifications an API failure produces (docs/product-rules.md#error-catalogue). Pure, so every rule is
 * unit-tested.
 */
import type { NotificationInput } from '../notifications/model.ts'

export interface CatalogueTitles {
  warning: string
  pleaseCheck: string
  internalError: string
}

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
 * `code` is said in the user's language; the server's English message is only the fallback.
 */
export function notificationsFor(
  failure: FailedResponse,
  titles: CatalogueTitles,
  refusal: RefusalNotice = () => undefined,
): NotificationInput[] {
  const { status, body, fallbackMessage } = failure
  if (status === 401) return []
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
  return [{ kind: 'error', title: titles.internalError, message: bodyMessage(body) ?? fallbackMessage }]
}

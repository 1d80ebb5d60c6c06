/** Spec section 8: which notifications an API failure produces. Pure, so every rule is unit-tested. */
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

function bodyErrors(body: unknown): string[] {
  if (!body || typeof body !== 'object' || !('errors' in body)) return []
  const errors = body.errors
  if (!errors || typeof errors !== 'object') return []
  return Object.values(errors as Record<string, unknown>).flatMap((v) =>
    Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : typeof v === 'string' ? [v] : [],
  )
}

/** 401 returns nothing to show: the session is cleared and the login screen says the rest. */
export function notificationsFor(failure: FailedResponse, titles: CatalogueTitles): NotificationInput[] {
  const { status, body, fallbackMessage } = failure
  if (status === 401) return []
  if (status === 406)
    return [{ kind: 'warning', title: titles.warning, message: bodyMessage(body) ?? fallbackMessage }]
  if (status === 422) {
    const messages = bodyErrors(body)
    const list = messages.length > 0 ? messages : [bodyMessage(body) ?? fallbackMessage]
    return list.map((message) => ({ kind: 'warning', title: titles.pleaseCheck, message }))
  }
  return [{ kind: 'error', title: titles.internalError, message: bodyMessage(body) ?? fallbackMessage }]
}

/**
 * The product API client of the screens: every call to `/api/v2` from a tab goes through `api`, so the error
 * catalogue (docs/product-rules.md#error-catalogue) is applied in exactly one place. The request itself, its
 * error class and its rule of success (2xx) are those of `request.ts`, shared with the bulk worker.
 */
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { notify } from '../notifications/store.ts'
import { type CatalogueWords, notificationsFor } from './error-catalogue.ts'
import { refusalNotice } from './refusals.ts'
import {
  API_BASE,
  ApiError,
  apiAnswer,
  failure,
  isSuccess,
  type ApiAnswer,
  type ApiCall,
} from '../../core/api/request.ts'
import { apiToken, clearSessionToken } from './session-cookie.ts'
import { notifyUnauthorized, onUnauthorized } from './unauthorized.ts'

export { API_BASE, ApiError }
/** The session registers there: a 401 anywhere ends the session and shows the login screen. */
export { onUnauthorized }

function titles(): CatalogueWords {
  return {
    warning: i18n._(msg`Warning`),
    pleaseCheck: i18n._(msg`Please check.`),
    internalError: i18n._(msg`Internal Error`),
    noConnection: i18n._(msg`No connection`),
    noConnectionMessage: i18n._(
      msg`Pagecast could not reach its server. Check your internet, then try again.`,
    ),
    serverFailed: i18n._(msg`The server could not finish this. Try again in a moment.`),
    tooManyRequests: i18n._(msg`Too many requests. Wait a minute, then try again.`),
    refused: (status) => i18n._(msg`The server refused this request (error ${status}).`),
  }
}

/**
 * Whether the owner was told, since the last answer of the server, that it could not be reached: a lost
 * connection is said once, not once per call that fails while it lasts.
 */
let connectionLostTold = false

function report(status: number, body: unknown, fallbackMessage: string, notifications: boolean): never {
  const error = new ApiError(status, body, fallbackMessage)
  console.error('API request failed', status, body ?? fallbackMessage)
  if (status === 401) {
    clearSessionToken()
    notifyUnauthorized()
  }
  if (notifications) notifyApiError(error)
  throw error
}

/**
 * The notifications of docs/product-rules.md#error-catalogue for a failure a `silentApi` caller chose not to say
 * itself.
 */
export function notifyApiError(error: ApiError): void {
  const { status, body, message } = error
  if (status === 0) {
    // Offline, the offline banner (the inbox's own line on a page) already says it. A device that believes it
    // is online hears it once, until an answer comes back.
    if (!navigator.onLine || connectionLostTold) return
    connectionLostTold = true
  }
  for (const n of notificationsFor({ status, body, fallbackMessage: message }, titles(), refusalNotice))
    notify(n)
}

/** "Please check.": a warning about what the user gave, in their language. */
export function notifyPleaseCheck(message: string): void {
  notify({ kind: 'warning', title: titles().pleaseCheck, message })
}

function createApi(notifications: boolean) {
  return async function call<T = unknown>(path: string, options: ApiCall = {}): Promise<T> {
    let answer: ApiAnswer
    try {
      answer = await apiAnswer(path, options, { token: apiToken })
    } catch (err) {
      // An aborted request (navigation, cancelled query) is not a failure worth telling the user about.
      if (!(err instanceof ApiError)) throw err
      report(0, undefined, err.message, notifications)
    }
    connectionLostTold = false
    if (!isSuccess(answer.status)) {
      const error = failure(answer)
      report(error.status, error.body, error.message, notifications)
    }
    return answer.body as T
  }
}

/** Calls the API with the session's bearer; a failure is reported (notifications, log) and rejects. */
export const api = createApi(true)

/**
 * The same client for the calls whose failure shows nothing (accept-terms, cancellation;
 * docs/product-rules.md#error-catalogue): a failure is still logged and rejected, and a 401 still ends the
 * session.
 */
export const silentApi = createApi(false)

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}

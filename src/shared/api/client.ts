/**
 * The product API client: every call to `/api/v2` goes through `api`, so the error catalogue of spec
 * section 8 is applied in exactly one place. Statuses 200–400 count as success (spec section 7).
 */
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { FetchError, ofetch } from 'ofetch'
import { notify } from '../notifications/store.ts'
import { type CatalogueTitles, notificationsFor } from './error-catalogue.ts'
import { refusalNotice } from './refusals.ts'
import { apiToken, clearSessionToken } from './session-cookie.ts'
import { notifyUnauthorized, onUnauthorized } from './unauthorized.ts'

export const API_BASE = '/api/v2'

/** What every failed API call rejects with, after its notifications were shown and it was logged. */
export class ApiError extends Error {
  readonly status: number
  readonly body: unknown
  constructor(status: number, body: unknown, message: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.body = body
  }
}

/** The session registers there: a 401 anywhere ends the session and shows the login screen. */
export { onUnauthorized }

function titles(): CatalogueTitles {
  return {
    warning: i18n._(msg`Warning`),
    pleaseCheck: i18n._(msg`Please check.`),
    internalError: i18n._(msg`Internal Error`),
  }
}

function report(status: number, body: unknown, fallbackMessage: string, notifications: boolean): never {
  const error = new ApiError(status, body, fallbackMessage)
  console.error('API request failed', status, body ?? fallbackMessage)
  if (status === 401) {
    clearSessionToken()
    notifyUnauthorized()
  }
  // Offline, a failed call is expected: the offline banner says so once instead of a toast per call.
  if (!notifications || (status === 0 && !navigator.onLine)) throw error
  for (const n of notificationsFor({ status, body, fallbackMessage }, titles(), refusalNotice)) notify(n)
  throw error
}

function createApi(notifications: boolean) {
  return ofetch.create({
    baseURL: API_BASE,
    headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    // Status handling is ours (200–400 succeed), not ofetch's (which rejects 400).
    ignoreResponseError: true,
    retry: 0,
    onRequest({ options }) {
      const token = apiToken()
      if (token && !options.headers.has('Authorization'))
        options.headers.set('Authorization', `Bearer ${token}`)
    },
    onRequestError({ error }) {
      // An aborted request (navigation, cancelled query) is not a failure worth telling the user about.
      if (error instanceof ApiError || error?.name === 'AbortError') return
      report(0, undefined, error?.message ?? 'Network error', notifications)
    },
    onResponse({ response }) {
      if (response.status >= 200 && response.status <= 400) return
      report(response.status, response._data, response.statusText || `HTTP ${response.status}`, notifications)
    },
  })
}

export const api = createApi(true)

/**
 * The same client for the calls whose failure spec section 8 shows nothing (accept-terms, cancellation): a
 * failure is still logged and rejected, and a 401 still ends the session.
 */
export const silentApi = createApi(false)

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError || (error instanceof FetchError && error.cause instanceof ApiError)
}

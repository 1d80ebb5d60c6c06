/**
 * Every failure leaves as a 4xx with a clear `{ message }` (422 adds `errors`: field -> messages), or as a
 * 500 `{ message: 'Internal Error' }` that never carries internals (docs/product-rules.md#error-catalogue).
 */
import type { FastifyError, FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { RefusalCode } from '../../core/contracts/api.ts'
import { inputErrors } from './input-guard.ts'

// The shared contracts are built with zod's functional build, which has no messages of its own: their issues
// read in English, as the `errors` maps have always said them.
z.config(z.locales.en())

export class HttpError extends Error {
  readonly statusCode: number
  readonly errors: Record<string, string[]> | undefined
  /** Machine-readable reason beside the human message, for clients that act on it (e.g. `trial_used`). */
  readonly code: string | undefined
  constructor(statusCode: number, message: string, errors?: Record<string, string[]>, code?: string) {
    super(message)
    this.statusCode = statusCode
    this.errors = errors
    this.code = code
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, what)
export const notAcceptable = (message: string, code?: RefusalCode) =>
  new HttpError(406, message, undefined, code)
export const unauthorized = (message = 'Unauthenticated.') => new HttpError(401, message)

export function invalid(field: string, message: string): HttpError {
  return new HttpError(422, 'The given data was invalid.', { [field]: [message] })
}

/**
 * Field -> messages, the shape the app shows one notification per entry for
 * (docs/product-rules.md#error-catalogue).
 */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length ? `${issue.path.join('.')}.` : ''
      for (const key of issue.keys) add(`${prefix}${key}`, `The field ${key} is not allowed.`)
      continue
    }
    const field = issue.path.length ? issue.path.join('.') : 'body'
    add(field, issue.message)
  }
  return errors
}

/**
 * The value as the schema reads it, or a 422 naming every field at fault: the schema's issues beside what
 * `inputErrors` finds (NUL, unpaired surrogates, deep nesting; the schema only walks as deep as it is written).
 */
export function parse<S extends z.core.$ZodType>(schema: S, value: unknown): z.output<S> {
  const unfit = inputErrors(value)
  const result = z.safeParse(schema, value)
  if (!result.success || Object.keys(unfit).length > 0) {
    const errors = result.success ? {} : issuesToErrors(result.error.issues)
    for (const [field, messages] of Object.entries(unfit)) (errors[field] ??= []).push(...messages)
    throw new HttpError(422, 'The given data was invalid.', errors)
  }
  return result.data
}

/**
 * Every route registered after it refuses, before its own validation, what `inputErrors` finds in the path
 * parameters, the query string and the body (raw bodies, kept as bytes for their signatures, are left to their
 * routes): a 422 naming each field by its dotted path.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const errors = {
      ...inputErrors(request.params, 'params'),
      ...inputErrors(request.query, 'query'),
      ...inputErrors(request.body, 'body'),
    }
    if (Object.keys(errors).length > 0) throw new HttpError(422, 'The given data was invalid.', errors)
  })
}

/** Fastify's own 4xx codes, said in words a person can act on. */
const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [422, 'The request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [422, 'The request body is empty but declared as JSON.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'This content type is not supported; send JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'The request body does not match its declared length.'],
  FST_REQ_FILE_TOO_LARGE: [413, 'The file is too large.'],
  FST_FILES_LIMIT: [413, 'Too many files.'],
  FST_PARTS_LIMIT: [413, 'Too many parts.'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'The request is not multipart/form-data.'],
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | SyntaxError, request, reply) => {
    if (error instanceof HttpError) {
      const body = {
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
        ...(error.code ? { code: error.code } : {}),
      }
      return reply.code(error.statusCode).send(body)
    }
    const code = 'code' in error ? error.code : undefined
    const known = code ? FASTIFY_MESSAGES[code] : undefined
    if (known) {
      const [status, message] = known
      return reply.code(status).send(status === 422 ? { message, errors: { body: [message] } } : { message })
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500
    if (status === 429)
      return reply.code(429).send({ message: 'Too many requests. Please wait a minute and try again.' })
    if (status >= 400 && status < 500)
      return reply.code(status).send({ message: error.message || 'Bad request.' })
    request.log.error({ err: error }, 'request failed')
    return reply.code(500).send({ message: 'Internal Error' })
  })
}

/**
 * The network's batch call (docs/product-rules.md#batched-calls): up to BATCH_MAX Graph calls in one POST,
 * each answered in order with its own status and JSON body. Each call still counts as one against the page's
 * limits; what a batch saves is the round trips and the device's work per call. A call's failure is that
 * call's alone: it is classified as if the call had been made by itself.
 */
import type { GraphTransport } from './client.ts'
import { classifyGraphError, type GraphError } from './errors.ts'

/** The most calls one batch may carry. */
export const BATCH_MAX = 50

export interface BatchCall {
  method: 'GET'
  /** The path after the version, with its query (`{psid}/custom_labels?fields=id`). */
  relativeUrl: string
}

export type BatchAnswer<T> = { ok: true; data: T } | { ok: false; error: GraphError }

interface RawAnswer {
  code?: number
  body?: string
}

function answerOf<T>(raw: RawAnswer | null | undefined): BatchAnswer<T> {
  // A call the network could not finish in time comes back as null: it is tried again later, like a 5xx.
  if (!raw || typeof raw.code !== 'number') return { ok: false, error: classifyGraphError(undefined, 503) }
  let data: unknown
  try {
    data = raw.body ? JSON.parse(raw.body) : undefined
  } catch {
    return { ok: false, error: classifyGraphError(undefined, raw.code) }
  }
  const failed = raw.code >= 400 || (data !== null && typeof data === 'object' && 'error' in data)
  if (failed || data === undefined) return { ok: false, error: classifyGraphError(data, raw.code || 500) }
  return { ok: true, data: data as T }
}

/**
 * The calls made as one batch with the token; resolves with one answer per call, in order. The batch itself
 * failing (the network unreachable, the token refused, a malformed answer) rejects with its GraphError.
 */
export async function batchCalls<T>(
  transport: GraphTransport,
  token: string,
  calls: readonly BatchCall[],
): Promise<BatchAnswer<T>[]> {
  if (calls.length === 0) return []
  if (calls.length > BATCH_MAX) throw new RangeError(`at most ${BATCH_MAX} calls in a batch`)
  const raw = await transport.call<unknown>(
    'POST',
    '',
    {},
    {
      access_token: token,
      include_headers: false,
      batch: JSON.stringify(calls.map((c) => ({ method: c.method, relative_url: c.relativeUrl }))),
    },
  )
  if (!Array.isArray(raw) || raw.length !== calls.length) throw classifyGraphError(undefined, 200)
  return (raw as (RawAnswer | null)[]).map((r) => answerOf<T>(r))
}

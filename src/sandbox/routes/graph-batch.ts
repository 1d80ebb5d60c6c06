/**
 * The Graph API's batch call (docs/product-rules.md#batched-calls): `POST /` with `batch`, a JSON array of at
 * most 50 calls (`method`, `relative_url`, and a form-encoded `body` for a POST), and the batch's
 * `access_token` for the calls that carry none. Each call is made of the sandbox itself, at once with the
 * others, so it meets the same rules, faults and counts as when made alone. The answers come in the calls'
 * order as `{ code, headers, body }`, `body` the call's JSON answer as a string; `include_headers=false` leaves
 * the headers out. A batch that is not such an array, or is longer, is refused whole.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { BATCH_MAX } from '../../core/graph/batch.ts'
import { errors } from '../graph-error.ts'
import { graphParams } from '../params.ts'

type Params = Record<string, unknown>

interface BatchCall {
  method: 'GET' | 'POST' | 'DELETE'
  relativeUrl: string
  body?: string
}

const VERSIONED = /^v\d+\.\d+\//

/** The calls of a `batch` parameter, or the refusal the network gives for it. */
function callsOf(raw: unknown): BatchCall[] {
  if (raw === undefined || raw === '') throw errors.invalidParam('The parameter batch is required')
  let list: unknown = raw
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw)
    } catch {
      throw errors.invalidParam('The parameter batch must be a JSON array of requests')
    }
  }
  if (!Array.isArray(list) || list.length === 0)
    throw errors.invalidParam('The parameter batch must be a JSON array of requests')
  if (list.length > BATCH_MAX)
    throw errors.invalidParam(`Too many requests in batch message. Maximum batch size is ${BATCH_MAX}`)
  return list.map((item: unknown, i) => {
    const c = (item && typeof item === 'object' ? item : {}) as Params
    const method = typeof c.method === 'string' ? c.method.toUpperCase() : ''
    if (method !== 'GET' && method !== 'POST' && method !== 'DELETE')
      throw errors.invalidParam(`batch[${i}]: method must be GET, POST or DELETE`)
    if (typeof c.relative_url !== 'string' || !c.relative_url.trim())
      throw errors.invalidParam(`batch[${i}]: relative_url is required`)
    if (c.body !== undefined && typeof c.body !== 'string')
      throw errors.invalidParam(`batch[${i}]: body must be a form-encoded string`)
    return {
      method,
      relativeUrl: c.relative_url.trim().replace(/^\//, ''),
      body: c.body as string | undefined,
    }
  })
}

export function registerGraphBatch(graph: FastifyInstance, prefix: string): void {
  const batch = async (request: FastifyRequest) => {
    const { version } = request.params as { version: string }
    const params = graphParams(request)
    const calls = callsOf(params.batch)
    const token = typeof params.access_token === 'string' ? params.access_token : undefined
    const withHeaders = String(params.include_headers ?? 'true') !== 'false'
    return Promise.all(
      calls.map(async (call) => {
        const url = new URL(
          VERSIONED.test(call.relativeUrl) ? call.relativeUrl : `${version}/${call.relativeUrl}`,
          'http://graph.invalid/',
        )
        if (token && !url.searchParams.has('access_token')) url.searchParams.set('access_token', token)
        const res = await graph.inject({
          method: call.method,
          url: `${prefix}/graph${url.pathname}${url.search}`,
          ...(call.body === undefined
            ? {}
            : { payload: call.body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        })
        const type = res.headers['content-type']
        return {
          code: res.statusCode,
          ...(withHeaders && typeof type === 'string'
            ? { headers: [{ name: 'Content-Type', value: type }] }
            : {}),
          body: res.body,
        }
      }),
    )
  }
  graph.post('/graph/:version', batch)
  graph.post('/graph/:version/', batch)
}

/** A fetch that answers through `app.inject`, so the API reaches the sandbox mounted beside it without a port. */
import type { FastifyInstance } from 'fastify'

export function inProcessFetch(app: () => FastifyInstance): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const headers: Record<string, string> = {}
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value
    })
    const res = await app().inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
      ...(init?.body instanceof Uint8Array ? { payload: Buffer.from(init.body) } : {}),
    })
    const out = new Headers()
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue
      for (const v of Array.isArray(value) ? value : [value]) out.append(key, String(v))
    }
    const empty = res.statusCode === 204 || res.statusCode === 304
    return new Response(empty ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers: out,
    })
  }
}

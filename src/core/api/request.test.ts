import { describe, expect, it } from 'vitest'
import { ApiError, apiRequest } from './request.ts'

const answering =
  (status: number, body = '{"ok":true}') =>
  async () =>
    new Response(status === 204 ? null : body, { status })

describe('the product API request', () => {
  it('succeeds on a 2xx answer and reads its JSON', async () => {
    await expect(apiRequest('/x', {}, { fetch: answering(200) })).resolves.toEqual({ ok: true })
    await expect(apiRequest('/x', {}, { fetch: answering(204) })).resolves.toBeNull()
  })

  it('rejects any other status with an ApiError carrying the status and body', async () => {
    for (const status of [302, 400, 422, 500]) {
      const error = await apiRequest('/x', {}, { fetch: answering(status, '{"message":"no"}') }).catch(
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ status, body: { message: 'no' } })
    }
  })

  it('carries the server’s Retry-After of a refusal, in seconds or as a date', async () => {
    const limited = (retryAfter: string) => async () =>
      new Response('{"message":"Too many requests."}', {
        status: 429,
        headers: { 'Retry-After': retryAfter },
      })
    const seconds = await apiRequest('/x', {}, { fetch: limited('37') }).catch((e: unknown) => e)
    expect(seconds).toMatchObject({ status: 429, retryAfterMs: 37_000 })
    const date = new Date(Date.now() + 90_000).toUTCString()
    const dated = (await apiRequest('/x', {}, { fetch: limited(date) }).catch((e: unknown) => e)) as ApiError
    expect(dated.retryAfterMs).toBeGreaterThan(80_000)
    expect(dated.retryAfterMs).toBeLessThanOrEqual(90_000)
    const none = await apiRequest('/x', {}, { fetch: answering(503) }).catch((e: unknown) => e)
    expect(none).toMatchObject({ status: 503, retryAfterMs: undefined })
  })

  it('sends calls made together one task each, and one that must outlive the page at once', async () => {
    // A send sets `busy` until its task's microtasks have run: a send that finds it set shares a task.
    let busy = false
    let shared = 0
    let sent = 0
    const send = async () => {
      sent += 1
      if (busy) shared += 1
      busy = true
      queueMicrotask(() => void Promise.resolve().then(() => (busy = false)))
      return new Response('{}', { status: 200 })
    }
    const calls = [1, 2, 3].map(() => apiRequest('/x', {}, { fetch: send }))
    // Nothing went out in the task that made the calls.
    await Promise.resolve()
    expect(sent).toBe(0)
    await Promise.all(calls)
    expect(sent).toBe(3)
    expect(shared).toBe(0)
    void apiRequest('/x', { method: 'POST', keepalive: true }, { fetch: send })
    expect(sent).toBe(4)
  })

  it('rejects with status 0 when no answer came', async () => {
    const offline = async (): Promise<Response> => {
      throw new TypeError('Failed to fetch')
    }
    await expect(apiRequest('/x', {}, { fetch: offline })).rejects.toMatchObject({ status: 0 })
  })

  it('sends the bearer, the JSON body and the headers every call carries', async () => {
    let seen: Request | undefined
    const capture = async (input: RequestInfo | URL, init?: RequestInit) => {
      seen = new Request(new URL(String(input), location.origin), init)
      return new Response('{}', { status: 200 })
    }
    await apiRequest('/messages', { method: 'POST', body: { a: 1 } }, { token: () => 'tok', fetch: capture })
    expect(new URL(seen!.url).pathname).toBe('/api/v2/messages')
    expect(seen!.headers.get('Authorization')).toBe('Bearer tok')
    expect(seen!.headers.get('X-Requested-With')).toBe('XMLHttpRequest')
    expect(seen!.headers.get('Content-Type')).toBe('application/json')
    expect(await seen!.json()).toEqual({ a: 1 })
  })
})

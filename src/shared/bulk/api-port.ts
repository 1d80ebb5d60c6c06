/** The product API as the sender calls it, with the bearer handed over by a tab (memory only). */
import type { TouchBody } from '../contracts/api.ts'
import type { OpenServerJob, SenderApi, ServerRecipient } from './ports.ts'

export class ApiUnavailable extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.name = 'ApiUnavailable'
    this.status = status
  }
}

export function createSenderApi(
  base: string,
  token: () => string,
  f: typeof fetch = fetch.bind(globalThis),
): SenderApi {
  const root = `${base.replace(/\/$/, '')}/api/v2`

  async function call(path: string, method: string, body?: unknown): Promise<Response> {
    const res = await f(`${root}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        Authorization: `Bearer ${token()}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return res
  }

  async function ok(res: Response): Promise<unknown> {
    if (res.status >= 200 && res.status < 300) return res.status === 204 ? null : res.json().catch(() => null)
    throw new ApiUnavailable(res.status, `HTTP ${res.status}`)
  }

  return {
    async touch(jobId: string, body: TouchBody) {
      const res = await call(`/messages/${encodeURIComponent(jobId)}/touch`, 'POST', body)
      if (res.status === 406) return { kind: 'refused' }
      if (res.status === 404 || res.status === 410) return { kind: 'gone' }
      const json = await ok(res)
      // The schema library comes with the first touch: a tab that only shows or controls jobs (the progress
      // cards) never builds the API's schemas, which costs the start of every screen otherwise.
      const { touchResponse } = await import('../contracts/api.ts')
      return { kind: 'ok', response: touchResponse.parse(json) }
    },
    async setState(jobId, state, reason) {
      await ok(
        await call(
          `/messages/${encodeURIComponent(jobId)}/state`,
          'POST',
          reason ? { state, reason } : { state },
        ),
      )
    },
    async putRecipients(jobId, list) {
      await ok(await call(`/messages/${encodeURIComponent(jobId)}/recipients`, 'PUT', { recipients: list }))
    },
    async listOpen() {
      const json = (await ok(await call('/messages?state=open', 'GET'))) as
        { data?: OpenServerJob[] } | OpenServerJob[]
      const list = Array.isArray(json) ? json : (json?.data ?? [])
      return list.map((j) => ({ ...j, id: String(j.id) }))
    },
    async listRecipients(jobId, after) {
      const q = new URLSearchParams({ limit: '1000' })
      if (after) q.set('after', after)
      const json = (await ok(
        await call(`/messages/${encodeURIComponent(jobId)}/recipients?${q}`, 'GET'),
      )) as {
        data: ServerRecipient[]
        next: string | null
      }
      return { data: json.data ?? [], next: json.next ?? null }
    },
  }
}

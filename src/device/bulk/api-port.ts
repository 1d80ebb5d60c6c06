/** The product API as the sender calls it, with the bearer handed over by a tab (memory only). */
import type { TouchBody } from '../../core/contracts/api.ts'
import { apiAnswer, failure, isSuccess, type ApiAnswer, type ApiTransport } from '../../core/api/request.ts'
import type { LeaseOutcome, OpenServerJob, SenderApi, ServerRecipient } from '../../core/bulk/ports.ts'

export function createSenderApi(
  base: string,
  token: () => string,
  f: typeof fetch = fetch.bind(globalThis),
): SenderApi {
  const transport: ApiTransport = { origin: base, token, fetch: f }
  const call = (path: string, method: string, body?: unknown) => apiAnswer(path, { method, body }, transport)

  async function ok(answer: ApiAnswer): Promise<unknown> {
    if (isSuccess(answer.status)) return answer.body
    throw failure(answer)
  }

  /** A lease or reservation answer: held, or who holds the job instead. */
  async function leaseOutcome(answer: ApiAnswer): Promise<LeaseOutcome> {
    if (answer.status === 404) return { kind: 'gone' }
    if (answer.status === 409) {
      const sender = (answer.body as { errors?: { sender?: string[] } } | null)?.errors?.sender?.[0]
      return { kind: sender === 'server' ? 'server' : 'elsewhere' }
    }
    const body = (await ok(answer)) as {
      epoch: number
      lease_ms: number
      uncertain?: { recipient_id: string; attempt_at: number; image_sent?: boolean; branded?: boolean }[]
    }
    return { kind: 'held', epoch: body.epoch, leaseMs: body.lease_ms, uncertain: body.uncertain ?? [] }
  }

  return {
    async lease(jobId, body) {
      return leaseOutcome(await call(`/messages/${encodeURIComponent(jobId)}/lease`, 'POST', body))
    },
    async reserve(jobId, body) {
      return leaseOutcome(await call(`/messages/${encodeURIComponent(jobId)}/reserve`, 'POST', body))
    },
    async touch(jobId: string, body: TouchBody) {
      const res = await call(`/messages/${encodeURIComponent(jobId)}/touch`, 'POST', body)
      if (res.status === 406) return { kind: 'refused' }
      if (res.status === 404 || res.status === 410) return { kind: 'gone' }
      // A repeat cannot change the answer: the touch leaves the outbox instead of holding up the ones after it.
      if (res.status === 409) return { kind: 'not_admitted' }
      const json = await ok(res)
      // The schema library comes with the first touch: a tab that only shows or controls jobs (the progress
      // cards) never builds the API's schemas, which costs the start of every screen otherwise.
      const { touchResponse } = await import('../../core/contracts/api.ts')
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
      const json = (await ok(
        await call(`/messages/${encodeURIComponent(jobId)}/recipients`, 'PUT', { recipients: list }),
      )) as { added?: number; total?: number } | null
      return { added: Number(json?.added ?? 0), total: Number(json?.total ?? 0) }
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

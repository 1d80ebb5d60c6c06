/** Switchable faults for tests and demos: latency, a share of transient failures, rate limiting, a network cut. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { errors, type SandboxGraphError } from './graph-error.ts'

export interface Faults {
  latency_ms: number
  /** 0..1: the share of sends answering a transient error (code 2 or 1, HTTP 500). */
  fail_rate: number
  /** Every send answers code 613. */
  rate_limit: boolean
  /** Every Graph request is cut at the socket: clients see a network error. */
  offline: boolean
}

export const NO_FAULTS: Faults = { latency_ms: 0, fail_rate: 0, rate_limit: false, offline: false }

export function mergeFaults(current: Faults, patch: unknown): Faults {
  const p = (patch && typeof patch === 'object' ? patch : {}) as Record<string, unknown>
  const next = { ...current }
  if (typeof p.latency_ms === 'number' && p.latency_ms >= 0) next.latency_ms = Math.min(p.latency_ms, 60_000)
  if (typeof p.fail_rate === 'number') next.fail_rate = Math.max(0, Math.min(1, p.fail_rate))
  if (typeof p.rate_limit === 'boolean') next.rate_limit = p.rate_limit
  if (typeof p.offline === 'boolean') next.offline = p.offline
  return next
}

/** onRequest hook for the Graph routes: cut or delay the request before anything else runs. */
export function faultHook(faults: () => Faults) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const f = faults()
    if (f.offline) {
      reply.hijack()
      request.raw.socket.destroy()
      return
    }
    if (f.latency_ms > 0) await new Promise((r) => setTimeout(r, f.latency_ms))
  }
}

/** The fault a send answers with, if any (rate limiting first, then the random transient share). */
export function sendFault(f: Faults, rnd: () => number = Math.random): SandboxGraphError | undefined {
  if (f.rate_limit) return errors.rateLimited()
  if (f.fail_rate > 0 && rnd() < f.fail_rate) return errors.transient(rnd() < 0.25)
  return undefined
}

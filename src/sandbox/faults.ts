/** Switchable faults for tests and demos: latency, a share of transient failures, rate limiting, a network cut. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { errors, type SandboxGraphError } from './graph-error.ts'

export interface Faults {
  latency_ms: number
  /**
   * 0..1: the share of sends answering a transient error (code 2 or 1, HTTP 500), spread evenly over the sends
   * counted from when the faults were last set (0.2: every fifth), not drawn at random. A sender retries a
   * transient error a bounded number of times, so with random draws a test's outcome would depend on luck
   * (at 0.2, four failures in a row for some recipient in about one job of fifty); spread evenly, no two
   * sends in a row fail at a share up to 0.5.
   */
  fail_rate: number
  /** Every send answers code 613. */
  rate_limit: boolean
  /** Every Graph request is cut at the socket: clients see a network error. */
  offline: boolean
  /** Webhooks (src/sandbox/webhooks.ts): the share (0..1) never sent. */
  webhook_drop: number
  /** The share (0..1) sent twice. */
  webhook_duplicate: number
  /** Each is sent this many ms late. */
  webhook_delay_ms: number
  /** Each is held back until the next one has gone (pairs arrive newer first). */
  webhook_reorder: boolean
  /** Signed with a wrong secret (the server must refuse them). */
  webhook_bad_signature: boolean
  /** The share (0..1) of the page's sends the customer's device reports delivered. */
  webhook_receipt_share: number
  /** The share (0..1) of those delivered that are then read. */
  webhook_read_share: number
  /** Receipts come a random 0..N ms after the send (and the read as long after the delivery). */
  webhook_receipt_delay_ms: number
}

export const NO_FAULTS: Faults = {
  latency_ms: 0,
  fail_rate: 0,
  rate_limit: false,
  offline: false,
  webhook_drop: 0,
  webhook_duplicate: 0,
  webhook_delay_ms: 0,
  webhook_reorder: false,
  webhook_bad_signature: false,
  webhook_receipt_share: 0.7,
  webhook_read_share: 0.6,
  webhook_receipt_delay_ms: 5_000,
}

const share = (v: number) => Math.max(0, Math.min(1, v))

export function mergeFaults(current: Faults, patch: unknown): Faults {
  const p = (patch && typeof patch === 'object' ? patch : {}) as Record<string, unknown>
  const next = { ...current }
  if (typeof p.latency_ms === 'number' && p.latency_ms >= 0) next.latency_ms = Math.min(p.latency_ms, 60_000)
  if (typeof p.fail_rate === 'number') next.fail_rate = Math.max(0, Math.min(1, p.fail_rate))
  if (typeof p.rate_limit === 'boolean') next.rate_limit = p.rate_limit
  if (typeof p.offline === 'boolean') next.offline = p.offline
  if (typeof p.webhook_drop === 'number') next.webhook_drop = share(p.webhook_drop)
  if (typeof p.webhook_duplicate === 'number') next.webhook_duplicate = share(p.webhook_duplicate)
  if (typeof p.webhook_delay_ms === 'number' && p.webhook_delay_ms >= 0)
    next.webhook_delay_ms = Math.min(p.webhook_delay_ms, 60_000)
  if (typeof p.webhook_reorder === 'boolean') next.webhook_reorder = p.webhook_reorder
  if (typeof p.webhook_bad_signature === 'boolean') next.webhook_bad_signature = p.webhook_bad_signature
  if (typeof p.webhook_receipt_share === 'number') next.webhook_receipt_share = share(p.webhook_receipt_share)
  if (typeof p.webhook_read_share === 'number') next.webhook_read_share = share(p.webhook_read_share)
  if (typeof p.webhook_receipt_delay_ms === 'number' && p.webhook_receipt_delay_ms >= 0)
    next.webhook_receipt_delay_ms = Math.min(p.webhook_receipt_delay_ms, 600_000)
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

/**
 * The fault a send answers with, if any: rate limiting first, then the transient share, where `send` is the
 * number of this send (from 1) since the faults were last set. It fails when the share's running total
 * reaches a new whole number, so the failures are spread evenly. Which of the two transient errors comes is
 * random.
 */
export function sendFault(
  f: Faults,
  send: number,
  rnd: () => number = Math.random,
): SandboxGraphError | undefined {
  if (f.rate_limit) return errors.rateLimited()
  if (f.fail_rate > 0 && Math.floor(send * f.fail_rate) > Math.floor((send - 1) * f.fail_rate))
    return errors.transient(rnd() < 0.25)
  return undefined
}

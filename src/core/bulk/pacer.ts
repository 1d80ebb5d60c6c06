/** Timing of the sender: the pacing between sends and the backoffs after failures. Pure. */
import { SEND_DELAY_MAX_MS, SEND_DELAY_MIN_MS } from '../constants/limits.ts'

export { backoff } from '../network/backoff.ts'

/** A random wait of 800 to 1500 ms, scaled (only the sandbox scales it below 1). */
export function pacingDelay(random: () => number, scale = 1): number {
  const ms = SEND_DELAY_MIN_MS + random() * (SEND_DELAY_MAX_MS - SEND_DELAY_MIN_MS)
  return Math.round(ms * scale)
}

/** How long a send to `count` recipients takes at the mandated pace (the mean wait between sends). */
export function sendDurationMs(count: number): number {
  return Math.max(0, count) * ((SEND_DELAY_MIN_MS + SEND_DELAY_MAX_MS) / 2)
}

/** Throttling: 30 s doubling to 15 min; the network's limits reset slowly. */
export const THROTTLE_BASE_MS = 30_000
export const THROTTLE_MAX_MS = 15 * 60_000
/** Offline and transient failures: 2 s doubling to 60 s. */
export const RETRY_BASE_MS = 2_000
export const RETRY_MAX_MS = 60_000
/** Transient errors retry this many times per recipient before it is rejected. */
export const TRANSIENT_MAX_ATTEMPTS = 4

/** How long to wait from `now` until the persisted `nextSendAt`, never negative. */
export function remainingWait(nextSendAt: number, now: number): number {
  return Math.max(0, nextSendAt - now)
}

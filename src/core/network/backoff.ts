/**
 * The rule for every call the app repeats against the network: exponential backoff with jitter and a cap,
 * and for calls that fetch one thing on demand (a page token) a gate that runs one call per key at a time and
 * none while the key's backoff after an unsuccessful call runs.
 */

/** Exponential backoff with "full jitter" between half and the whole step, so callers do not align. */
export function backoff(attempt: number, base: number, max: number, random: () => number, scale = 1): number {
  const step = Math.min(max, base * 2 ** Math.max(0, attempt - 1))
  return Math.round((step / 2 + (random() * step) / 2) * scale)
}

export interface RetryGateOptions<T> {
  base: number
  max: number
  /** Whether an answer is a failure that backs the key off (a rejected call always is). */
  failed(value: T): boolean
  now?: () => number
  random?: () => number
}

export interface RetryGate<T> {
  /**
   * Runs `call` for `key`, unless one is in flight (its promise is shared) or the key backs off after an
   * unsuccessful call (the last answer is given again without a call).
   */
  run(key: string, call: () => Promise<T>): Promise<T>
  /** When `key` may call again; 0 when it may now. */
  retryAt(key: string): number
  /** Forgets the failures of `key` (of every key without one): the next run calls at once. */
  reset(key?: string): void
}

interface KeyState<T> {
  flight?: Promise<T>
  failures: number
  retryAt: number
  last?: { ok: true; value: T } | { ok: false; error: unknown }
}

export function retryGate<T>(options: RetryGateOptions<T>): RetryGate<T> {
  const { base, max, failed, now = Date.now, random = Math.random } = options
  const keys = new Map<string, KeyState<T>>()
  const settle = (state: KeyState<T>, ok: boolean) => {
    state.flight = undefined
    state.failures = ok ? 0 : state.failures + 1
    state.retryAt = ok ? 0 : now() + backoff(state.failures, base, max, random)
  }
  return {
    run(key, call) {
      let state = keys.get(key)
      if (!state) keys.set(key, (state = { failures: 0, retryAt: 0 }))
      if (state.flight) return state.flight
      const last = state.last
      if (last && now() < state.retryAt)
        return last.ok ? Promise.resolve(last.value) : Promise.reject(last.error)
      const s = state
      s.flight = call().then(
        (value) => {
          s.last = { ok: true, value }
          settle(s, !failed(value))
          return value
        },
        (error: unknown) => {
          s.last = { ok: false, error }
          settle(s, false)
          throw error
        },
      )
      return s.flight
    },
    retryAt: (key) => keys.get(key)?.retryAt ?? 0,
    reset(key) {
      for (const [k, state] of keys)
        if (key === undefined || k === key) Object.assign(state, { failures: 0, retryAt: 0 })
    },
  }
}

/**
 * When the service worker is registered. Its code and its caching of the whole app are not needed to sign
 * in, so a signed-out visitor gets them only once the browser is idle, and never on a metered connection
 * (`saveData`) until someone signs in. A signed-in user gets them at once: the offline start needs them.
 * Kept free of imports so the entry chunk can carry it.
 */

export interface ScheduleDeps {
  isSignedIn(): boolean
  /** Calls `run` whenever the session changes; returns the unsubscribe. */
  subscribe(run: () => void): () => void
  /** The visitor asked the browser to save data (Network Information API). */
  saveData: boolean
  /** Runs `run` once the browser is idle. */
  idle(run: () => void): void
}

/** Calls `register` once: on sign-in, or when idle for a visitor who does not save data. */
export function scheduleServiceWorker(register: () => void, deps: ScheduleDeps): void {
  let done = false
  let unsubscribe = () => {}
  const once = () => {
    if (done) return
    done = true
    unsubscribe()
    register()
  }
  if (deps.isSignedIn()) return once()
  unsubscribe = deps.subscribe(() => {
    if (deps.isSignedIn()) once()
  })
  if (!deps.saveData) deps.idle(once)
}

/**
 * Runs `run` at the browser's next idle moment, at most `timeoutMs` later (after `fallbackMs` where the browser
 * cannot tell when it is idle); returns what cancels it.
 */
export function whenIdle(run: () => void, timeoutMs: number, fallbackMs: number): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(() => run(), { timeout: timeoutMs })
    return () => window.cancelIdleCallback(handle)
  }
  const timer = window.setTimeout(run, fallbackMs)
  return () => window.clearTimeout(timer)
}

/** The browser's own answers for `scheduleServiceWorker`. */
export function browserIdle(run: () => void): void {
  whenIdle(run, 5_000, 200)
}

export function browserSavesData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection
  return connection?.saveData === true
}

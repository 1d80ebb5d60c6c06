/**
 * Runs `run` at the browser's next idle moment, at most `timeoutMs` later (after `fallbackMs` where the browser
 * cannot tell when it is idle); returns what cancels it. Free of imports: the entry chunk carries it.
 */
export function whenIdle(run: () => void, timeoutMs: number, fallbackMs: number): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(() => run(), { timeout: timeoutMs })
    return () => window.cancelIdleCallback(handle)
  }
  const timer = window.setTimeout(run, fallbackMs)
  return () => window.clearTimeout(timer)
}

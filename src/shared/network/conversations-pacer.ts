/**
 * The network allows 2 calls per second per page on the conversations endpoint
 * (docs/architecture.md#the-networks-budgets). Every read of a page's conversations list (the list's pages,
 * its refresh, the background sync) takes its turn here, so together they never go faster.
 */

/** 2 calls per second: one call every 500 ms at most. */
export const CONVERSATIONS_CALL_INTERVAL_MS = 500

const nextSlot = new Map<string, number>()

function aborted(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError')
}

/**
 * Resolves when a call to `pageId`'s conversations may start, and books that slot. Rejects when `signal`
 * aborts before then (the slot is given back only if nobody booked after it; a later slot stays valid).
 */
export function paceConversationsCall(
  pageId: string,
  signal?: AbortSignal,
  now: () => number = Date.now,
): Promise<void> {
  if (signal?.aborted) return Promise.reject(aborted(signal))
  const at = Math.max(now(), nextSlot.get(pageId) ?? 0)
  nextSlot.set(pageId, at + CONVERSATIONS_CALL_INTERVAL_MS)
  const wait = at - now()
  if (wait <= 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, wait)
    function onAbort() {
      clearTimeout(timer)
      if (nextSlot.get(pageId) === at + CONVERSATIONS_CALL_INTERVAL_MS) nextSlot.set(pageId, at)
      reject(aborted(signal))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

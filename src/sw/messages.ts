/** The messages the page sends to the service worker: one typed union, checked on arrival. */

export type SwMessage = { type: 'SKIP_WAITING' }

export function parseSwMessage(data: unknown): SwMessage | null {
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING')
    return { type: 'SKIP_WAITING' }
  return null
}

/** Activates a waiting worker only when the page asks: the page asks only after the user agreed. */
export async function handleSwMessage(data: unknown, skipWaiting: () => Promise<void>): Promise<void> {
  const message = parseSwMessage(data)
  if (message?.type === 'SKIP_WAITING') await skipWaiting()
}

/** Who is told when the API answers 401: the session registers here and shows the login screen. */
const handlers = new Set<() => void>()

export function onUnauthorized(handler: () => void): () => void {
  handlers.add(handler)
  return () => handlers.delete(handler)
}

export function notifyUnauthorized(): void {
  for (const h of handlers) h()
}

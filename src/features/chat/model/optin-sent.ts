/**
 * The opt-in requests this tab sent, by the network's message id: the chat shows them as subscription requests
 * rather than as an empty page message (the history the network answers carries no template title).
 */
import { useSyncExternalStore } from 'react'

let sent: ReadonlyMap<string, string> = new Map()
const listeners = new Set<() => void>()

export function rememberOptInRequest(messageId: string, title: string): void {
  sent = new Map([...sent, [messageId, title]])
  for (const l of listeners) l()
}

export function useOptInRequests(): ReadonlyMap<string, string> {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => sent,
  )
}

/** The server's record of a customer's requests with this tab's own sends (the same message has one title). */
export function mergeOptInTitles(
  recorded: readonly { message_id: string; title: string }[] | undefined,
  inTab: ReadonlyMap<string, string>,
): ReadonlyMap<string, string> {
  if (!recorded?.length) return inTab
  return new Map([...recorded.map((r) => [r.message_id, r.title] as const), ...inTab])
}

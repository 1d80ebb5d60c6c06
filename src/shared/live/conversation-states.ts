/**
 * Who is waiting for an answer, on this device: the server's states in the local database (read offline by
 * the list's filters and counts), and who of the page's other people is replying in which chat (in memory,
 * lapsing by itself).
 */
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useState, useSyncExternalStore } from 'react'
import type { ConversationState, ReplyingEvent } from '../../core/contracts/conversation-states.ts'
import { type CachedConversationState, db, stateKey } from '../../device/db/db.ts'

const toRow = (s: ConversationState): CachedConversationState => ({
  ...s,
  key: stateKey(s.pageId, s.customerId),
})

/** The page's states as the server listed them, in place of those kept before. */
export async function storePageStates(pageId: string, states: readonly ConversationState[]): Promise<void> {
  await db.transaction('rw', db.conversationStates, async () => {
    await db.conversationStates.where('pageId').equals(pageId).delete()
    await db.conversationStates.bulkPut(states.filter((s) => s.pageId === pageId).map(toRow))
  })
}

/** One conversation's new state (a live event, or the answer to "done"). */
export async function storeState(state: ConversationState): Promise<void> {
  await db.conversationStates.put(toRow(state))
}

/** Several conversations' states, as the server answered them. */
export async function storeStates(states: readonly ConversationState[]): Promise<void> {
  if (states.length) await db.conversationStates.bulkPut(states.map(toRow))
}

/** The page's states by customer id, read live from the local database. */
export function usePageStates(pageId: string): ReadonlyMap<string, ConversationState> | undefined {
  return useLiveQuery(async () => {
    const rows = await db.conversationStates.where('pageId').equals(pageId).toArray()
    return new Map(rows.map((r) => [r.customerId, r]))
  }, [pageId])
}

/** One conversation's state, read live. */
export function useConversationState(pageId: string, customerId: string): ConversationState | undefined {
  return useLiveQuery(() => db.conversationStates.get(stateKey(pageId, customerId)), [pageId, customerId])
}

// Who is replying where: `${pageId}:${customerId}` -> the people and until when.
const replying = new Map<string, Map<string, { name: string; until: number }>>()
const listeners = new Set<() => void>()
let version = 0

function changed() {
  version += 1
  for (const l of [...listeners]) l()
}

/** Another person of the page is writing a reply (a live event): held until its `until`. */
export function noteReplying(e: ReplyingEvent, now = Date.now()): void {
  const until = Date.parse(e.until)
  if (!(until > now)) return
  const key = stateKey(e.pageId, e.customerId)
  const people = replying.get(key) ?? new Map<string, { name: string; until: number }>()
  people.set(e.userId, { name: e.name, until })
  replying.set(key, people)
  changed()
  setTimeout(changed, until - now + 50)
}

/** The names of the page's other people replying in this chat now. */
export function replyingNow(pageId: string, customerId: string, now = Date.now()): string[] {
  const people = replying.get(stateKey(pageId, customerId))
  if (!people) return []
  for (const [id, p] of people) if (p.until <= now) people.delete(id)
  return [...people.values()].map((p) => p.name)
}

/** The names of the others replying in this chat, kept current (each lapses by itself). */
export function useReplying(pageId: string, customerId: string): string[] {
  const v = useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => version,
  )
  const [names, setNames] = useState<string[]>([])
  useEffect(() => {
    const next = replyingNow(pageId, customerId)
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the store's version says when to look again
    setNames((prev) => (prev.join('\n') === next.join('\n') ? prev : next))
  }, [v, pageId, customerId])
  return names
}

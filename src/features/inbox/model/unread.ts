/**
 * Unread counts in the conversation cache: per conversation (the network's unread_count, kept in Dexie, or the
 * customer's count kept in the conversation's state after a broadcast) and per page (their sum). The list, the page's sidebar and the home cards all read them from here, so a change
 * made by anyone (opening a conversation, a live message arriving) shows everywhere at once.
 */
import { type CachedConversation, type CachedConversationState, db, stateKey } from '../../../device/db/db.ts'
import { shownUnread } from '../../../core/policy/needs-reply.ts'
import type { LocalUnread } from '../../../shared/live/unread.ts'
import { readInPieces } from './cache.ts'
import { conversationKey } from './conversation.ts'
import { type Changes, type Watch, watchTables, writtenKeys } from './main-thread.ts'

/**
 * One more unread message (or `by`) in a cached conversation, e.g. a live customer message that arrived
 * while the conversation was not open. Resolves false when the conversation is not in the cache.
 */
export async function bumpUnread(pageId: string, conversationId: string, by = 1): Promise<boolean> {
  const changed = await db.conversations
    .where('key')
    .equals(conversationKey(pageId, conversationId))
    .modify((row) => {
      row.unreadCount = Math.max(0, row.unreadCount) + by
    })
  return changed > 0
}

/**
 * The owner opened the conversation: nothing in it is unread any more. `seenAt` stays on the row, so a
 * network read that has not caught up with the mark_seen yet does not bring the count back.
 */
export async function markConversationSeen(
  pageId: string,
  conversationId: string,
  at: number = Date.now(),
): Promise<boolean> {
  const changed = await db.conversations
    .where('key')
    .equals(conversationKey(pageId, conversationId))
    .modify((row) => {
      row.unreadCount = 0
      delete row.liveUnread
      row.seenAt = Math.max(at, row.updatedAt, row.seenAt ?? 0)
      row.seenPending = true
    })
  return changed > 0
}

/** The network took the conversation's mark_seen. */
export async function markSeenDelivered(pageId: string, conversationId: string): Promise<void> {
  await db.conversations.update(conversationKey(pageId, conversationId), { seenPending: false })
}

/** Conversations of the page opened here whose mark_seen has not reached the network yet. */
export async function pendingSeen(pageId: string): Promise<{ id: string; customerId: string }[]> {
  const rows = await db.conversations
    .where('pageId')
    .equals(pageId)
    .filter((row) => row.seenPending === true)
    .toArray()
  return rows.map((row) => ({ id: row.id, customerId: row.customerId }))
}

/**
 * Unread messages over a page's cached conversations, as their rows show them (read in pieces: a large page is
 * thousands of rows).
 */
export async function pageUnreadCount(pageId: string): Promise<number> {
  const keys = (await db.conversations.where('pageId').equals(pageId).primaryKeys()) as string[]
  const states = new Map(
    (await db.conversationStates.where('pageId').equals(pageId).toArray()).map((s) => [s.customerId, s]),
  )
  return (await readInPieces(keys)).reduce(
    (sum, row) => sum + shownUnread(row, states.get(row.customerId)),
    0,
  )
}

/** The counts are read again at most this often while the cache changes (the walk stores pages quickly). */
const UNREAD_READ_GAP_MS = 500

/** What a page's count reads of a cached conversation. */
type CountedRow = Pick<CachedConversation, 'pageId' | 'customerId' | 'unreadCount' | 'seenAt'>

/**
 * A reader of every page's counts that keeps each cached conversation and each state between reads: after the
 * first read only the conversations and states written since are read again. A page's count is what its rows
 * show (`shownUnread`): a broadcast, which zeroes the network's counts, leaves the customers' unread words
 * counted.
 */
function pagesUnreadReader(): (changes: Changes) => Promise<Record<string, LocalUnread>> {
  /** Each cached conversation's page, customer, unread count and last opening here, by key. */
  let rows: Map<string, CountedRow> | undefined
  /** Each conversation's state, by its key (`stateKey`). */
  let states: Map<string, CachedConversationState> | undefined
  return async (changes) => {
    const syncs = new Map((await db.inboxSync.toArray()).map((s) => [s.pageId, s]))
    const written = writtenKeys(changes, 'conversations')
    const known = written && rows ? rows : new Map<string, CountedRow>()
    const keys =
      written && rows ? [...written] : ((await db.conversations.toCollection().primaryKeys()) as string[])
    const read = await readInPieces(keys)
    for (const key of keys) known.delete(key)
    for (const row of read)
      known.set(row.key, {
        pageId: row.pageId,
        customerId: row.customerId,
        unreadCount: row.unreadCount,
        seenAt: row.seenAt,
      })
    rows = known
    const writtenStates = writtenKeys(changes, 'conversationStates')
    if (writtenStates && states) {
      const now = await db.conversationStates.bulkGet([...writtenStates])
      for (const key of writtenStates) states.delete(key)
      for (const s of now) if (s) states.set(s.key, s)
    } else {
      states = new Map((await db.conversationStates.toArray()).map((s) => [s.key, s]))
    }
    const counts: Record<string, LocalUnread> = {}
    for (const pageId of syncs.keys()) counts[pageId] = { cached: 0, whole: false }
    for (const row of known.values()) {
      const count = (counts[row.pageId] ??= { cached: 0, whole: false })
      count.cached += shownUnread(row, states.get(stateKey(row.pageId, row.customerId)))
    }
    for (const [pageId, sync] of syncs) counts[pageId]!.whole = !!(sync.done || sync.whole)
    return counts
  }
}

/**
 * What the device knows of the unread messages of every page it has conversations or a sync of, kept current
 * as the cache changes (a burst of changes is read once); `pageUnread` (src/shared/live/unread.ts) makes it
 * the page's count.
 */
export function watchPagesUnread() {
  return {
    subscribe(observer: ((value: Record<string, LocalUnread>) => void) | Watch<Record<string, LocalUnread>>) {
      const watch = typeof observer === 'function' ? { next: observer, error: () => undefined } : observer
      const stop = watchTables(
        ['conversations', 'conversationStates', 'inboxSync'],
        pagesUnreadReader(),
        UNREAD_READ_GAP_MS,
        watch,
      )
      return { unsubscribe: stop }
    },
  }
}

/**
 * The one read of every page's counts that the screens share: the home cards, and the inbox's header and
 * sidebar, show what it last read, so two screens never show two numbers for a page and a screen opened after
 * another starts from the count that one showed. It reads while a screen listens, and a little longer, so
 * moving from one screen to the next keeps it.
 */
const KEEP_READING_MS = 5_000
let latest: Readonly<Record<string, LocalUnread>> | undefined
let reading: { unsubscribe(): void } | undefined
let idle: ReturnType<typeof setTimeout> | undefined
const listeners = new Set<() => void>()

function stopReading(): void {
  reading?.unsubscribe()
  reading = undefined
  latest = undefined
}

/** Listens to the shared counts (for `useSyncExternalStore`); the first listener starts the read. */
export function subscribePagesUnread(listener: () => void): () => void {
  listeners.add(listener)
  clearTimeout(idle)
  reading ??= watchPagesUnread().subscribe({
    next: (value) => {
      latest = value
      for (const l of listeners) l()
    },
    error: (err: unknown) => {
      console.error('the unread counts could not be read', err)
      reading = undefined
    },
  })
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) idle = setTimeout(stopReading, KEEP_READING_MS)
  }
}

/** The shared counts as last read (undefined before the first read). */
export function pagesUnreadNow(): Readonly<Record<string, LocalUnread>> | undefined {
  return latest
}

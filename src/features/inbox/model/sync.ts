/**
 * The background sync of a page's conversations into the Dexie cache, so the filter finds any conversation of
 * the page, not only the rows scrolled to. It reads the list from the head to its end in large pages, paced
 * with every other read of the page's conversations (pacer.ts), and stores where it stopped (`inboxSync`):
 * after a reload it goes on from that cursor. The network gives no total for the conversations edge, so the
 * progress is the number of conversations stored, and "all" once the end of the list was reached.
 */
import { db, type InboxSyncState } from '../../../shared/db/db.ts'
import type { Conversation, Page } from '../../../shared/graph/types.ts'
import { conversationKey, toCachedConversation } from './conversation.ts'

/** Conversations per call of the sync (the edge's largest page): the large demo page is 13 calls. */
export const SYNC_PAGE_SIZE = 100
/** A finished sync is run again from the head after this long, for conversations changed meanwhile. */
export const RESYNC_AFTER_MS = 6 * 3_600_000

export interface SyncDeps {
  /** Reads one page of the conversations list (after the cursor, or the head). */
  fetchPage: (after: string | undefined) => Promise<Page<Conversation>>
  /** Waits for the next free call slot of the page's conversations endpoint; rejects on abort. */
  pace: (signal: AbortSignal) => Promise<void>
  signal: AbortSignal
  now?: () => number
}

export function readSyncState(pageId: string): Promise<InboxSyncState | undefined> {
  return db.inboxSync.get(pageId)
}

function freshState(pageId: string, now: number): InboxSyncState {
  return { pageId, synced: 0, done: false, startedAt: now }
}

const OWNER = 'owner'

/**
 * Stores one page of the sync and its cursor in one transaction, unless the device's data changed hands
 * meanwhile (a sign-out wipes the tables, the owner row with them): then nothing is written.
 */
async function storeSyncPage(
  pageId: string,
  owner: string | undefined,
  page: readonly Conversation[],
  next: InboxSyncState,
): Promise<boolean> {
  return db.transaction('rw', db.conversations, db.inboxSync, db.meta, async () => {
    if (owner !== undefined && (await db.meta.get(OWNER))?.value !== owner) return false
    const previous = await db.conversations.bulkGet(page.map((c) => conversationKey(pageId, c.id)))
    await db.conversations.bulkPut(page.map((c, i) => toCachedConversation(pageId, c, previous[i])))
    await db.inboxSync.put(next)
    return true
  })
}

/**
 * Runs the sync of `pageId` until the end of the list, an abort (page switch, sign-out) or a failure (which
 * rejects; the caller decides when to try again). Resolves at once when the page is already synced.
 */
export async function runConversationSync(pageId: string, deps: SyncDeps): Promise<InboxSyncState> {
  const now = deps.now ?? Date.now
  const owner = (await db.meta.get(OWNER))?.value
  let state = (await readSyncState(pageId)) ?? freshState(pageId, now())
  if (state.done && now() - (state.finishedAt ?? 0) < RESYNC_AFTER_MS) return state
  if (state.done) state = { ...freshState(pageId, now()), whole: true }
  while (!deps.signal.aborted) {
    await deps.pace(deps.signal)
    if (deps.signal.aborted) break
    const page = await deps.fetchPage(state.after)
    if (deps.signal.aborted) break
    const after = page.paging?.next ? page.paging.cursors?.after : undefined
    const next: InboxSyncState = {
      pageId,
      synced: state.synced + page.data.length,
      done: !after,
      startedAt: state.startedAt,
      ...(after ? { after } : { finishedAt: now() }),
      ...(state.whole || !after ? { whole: true } : {}),
    }
    if (!(await storeSyncPage(pageId, owner, page.data, next))) break
    state = next
    if (state.done) break
  }
  return state
}

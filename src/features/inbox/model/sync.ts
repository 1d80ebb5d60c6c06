/**
 * The one walk over a page's conversations edge that fills the Dexie cache, so the list shows and the filter
 * finds any conversation of the page, not only the rows scrolled to. The head of the list is read on entry,
 * on refresh and when a live message asks for it (`storeHead`); from there the walk goes on to the end of the
 * list in large pages (`runConversationSync`), paced with every other read of the page's conversations
 * (pacer.ts), and stores where it stopped (`inboxSync`): after a reload it goes on from that cursor. The
 * network gives no total for the conversations edge, so the progress is the number of conversations stored,
 * and "all" once the end of the list was reached.
 */
import { db, type InboxSyncState } from '../../../device/db/db.ts'
import type { Conversation, Page } from '../../../core/graph/types.ts'
import { conversationKey, toCachedConversation } from './conversation.ts'
import { yieldToMain } from './main-thread.ts'

/** Conversations per call of the sync (the edge's largest page): the large demo page is 13 calls. */
export const SYNC_PAGE_SIZE = 100
/** Rows stored in one piece (one transaction): a piece costs a few milliseconds of a slow phone's main thread. */
const ROWS_STORED_PER_PIECE = 10
/** A finished sync is run again from the head after this long, for conversations changed meanwhile. */
export const RESYNC_AFTER_MS = 6 * 3_600_000

export interface SyncDeps {
  /** Reads one page of the conversations list (after the cursor, or the head). */
  fetchPage: (after: string | undefined) => Promise<Page<Conversation>>
  /**
   * Gives the server what the page of the list says of its conversations (their state from before the page
   * was connected), before it is stored; a rejection stops the walk there, to be read again.
   */
  report: (page: readonly Conversation[]) => Promise<void>
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

/** Who the device's data belongs to now: a write made for another owner (after a sign-out) is dropped. */
export async function readOwner(): Promise<string | undefined> {
  return (await db.meta.get(OWNER))?.value
}

/** Where the walk stands once `page` (read after `state`'s cursor) is stored. */
function advance(state: InboxSyncState, page: Page<Conversation>, now: number): InboxSyncState {
  const after = page.paging?.next ? page.paging.cursors?.after : undefined
  return {
    pageId: state.pageId,
    synced: state.synced + page.data.length,
    done: !after,
    startedAt: state.startedAt,
    ...(after ? { after } : { finishedAt: now }),
    ...(state.whole || !after ? { whole: true } : {}),
  }
}

/** Whether the walk starts again at the head: nothing was read yet, or the last walk ended long enough ago. */
function startsOver(state: InboxSyncState | undefined, now: number): boolean {
  return !state || (state.done && now - (state.finishedAt ?? 0) >= RESYNC_AFTER_MS)
}

/**
 * Stores one page of the walk and then its cursor, unless the device's data changed hands meanwhile (a
 * sign-out wipes the tables, the owner row with them): then nothing more is written. The rows go in pieces
 * (`ROWS_STORED_PER_PIECE`, one transaction each, the main thread given back between them); the cursor moves with
 * the last piece, so a walk stopped halfway reads the page again.
 */
async function storeSyncPage(
  pageId: string,
  owner: string | undefined,
  page: readonly Conversation[],
  next?: InboxSyncState,
): Promise<boolean> {
  const pieces = Math.max(1, Math.ceil(page.length / ROWS_STORED_PER_PIECE))
  for (let i = 0; i < pieces; i++) {
    if (i > 0) await yieldToMain()
    const piece = page.slice(i * ROWS_STORED_PER_PIECE, (i + 1) * ROWS_STORED_PER_PIECE)
    const last = i === pieces - 1
    const stored = await db.transaction('rw', db.conversations, db.inboxSync, db.meta, async () => {
      if (owner !== undefined && (await db.meta.get(OWNER))?.value !== owner) return false
      const previous = await db.conversations.bulkGet(piece.map((c) => conversationKey(pageId, c.id)))
      await db.conversations.bulkPut(piece.map((c, j) => toCachedConversation(pageId, c, previous[j])))
      if (last && next) await db.inboxSync.put(next)
      return true
    })
    if (!stored) return false
  }
  return true
}

/**
 * Stores the head of the list (its newest conversations). When the walk starts there (nothing read yet, or
 * the last walk is old), the head is its first page: its cursor is stored too, and the walk goes on after it.
 * Resolves with where the walk stands, or undefined when the device changed hands meanwhile (nothing written).
 */
export async function storeHead(
  pageId: string,
  owner: string | undefined,
  page: Page<Conversation>,
  now: () => number = Date.now,
): Promise<InboxSyncState | undefined> {
  const state = await readSyncState(pageId)
  const at = now()
  if (!startsOver(state, at)) {
    return (await storeSyncPage(pageId, owner, page.data)) ? state : undefined
  }
  const start = state ? { ...freshState(pageId, at), whole: true } : freshState(pageId, at)
  const next = advance(start, page, at)
  return (await storeSyncPage(pageId, owner, page.data, next)) ? next : undefined
}

/**
 * Runs the sync of `pageId` until the end of the list, an abort (page switch, sign-out) or a failure (which
 * rejects; the caller decides when to try again). Resolves at once when the page is already synced.
 */
export async function runConversationSync(pageId: string, deps: SyncDeps): Promise<InboxSyncState> {
  const now = deps.now ?? Date.now
  const owner = await readOwner()
  const stored = await readSyncState(pageId)
  if (stored?.done && !startsOver(stored, now())) return stored
  let state = !stored
    ? freshState(pageId, now())
    : stored.done
      ? { ...freshState(pageId, now()), whole: true }
      : stored
  while (!deps.signal.aborted) {
    await deps.pace(deps.signal)
    if (deps.signal.aborted) break
    const page = await deps.fetchPage(state.after)
    if (deps.signal.aborted) break
    await deps.report(page.data)
    if (deps.signal.aborted) break
    const next = advance(state, page, now())
    if (!(await storeSyncPage(pageId, owner, page.data, next))) break
    state = next
    if (state.done) break
  }
  return state
}

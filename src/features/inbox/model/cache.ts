/** The per-page conversation cache in Dexie: shown at once on entry, refreshed from the network after. */
import { Dexie } from 'dexie'
import { type CachedConversation, db } from '../../../device/db/db.ts'
import type { Conversation } from '../../../core/graph/types.ts'
import { conversationKey, toCachedConversation } from './conversation.ts'
import { yieldToMain } from './main-thread.ts'

/** Rows read in one piece: a piece costs a few milliseconds of a slow phone's main thread. */
const ROWS_READ_PER_PIECE = 40

function newestFirst(pageId: string) {
  return db.conversations
    .where('[pageId+updatedAt]')
    .between([pageId, Dexie.minKey], [pageId, Dexie.maxKey])
    .reverse()
}

/** The newest rows only: enough to paint the first screen before the whole list is read. */
export function readFirstConversations(pageId: string, limit: number): Promise<CachedConversation[]> {
  return newestFirst(pageId).limit(limit).toArray()
}

/**
 * Every row of the page, newest first, read in pieces with the main thread given back between them (the keys
 * first, from the index alone). A row deleted between the pieces is left out; the next read has it gone.
 */
export async function readAllConversations(pageId: string): Promise<CachedConversation[]> {
  return readInPieces((await newestFirst(pageId).primaryKeys()) as string[])
}

/** The rows of `keys`, in their order, read in pieces with the main thread given back between them. */
export async function readInPieces(keys: readonly string[]): Promise<CachedConversation[]> {
  const rows: CachedConversation[] = []
  for (let i = 0; i < keys.length; i += ROWS_READ_PER_PIECE) {
    if (i > 0) await yieldToMain()
    for (const row of await db.conversations.bulkGet(keys.slice(i, i + ROWS_READ_PER_PIECE)))
      if (row) rows.push(row)
  }
  return rows
}

/** The list's order, the cache index's: newest first, then (as the index has it) the greater key first. */
function newerFirst(a: CachedConversation, b: CachedConversation): number {
  return b.updatedAt - a.updatedAt || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0)
}

/**
 * The page's rows once `keys` were written: those of the rows read again (`read`, the keys' rows still in the
 * cache) take their place, in the cache's order; a key without a row read is gone.
 */
export function mergeChanged(
  pageId: string,
  before: readonly CachedConversation[],
  keys: ReadonlySet<string>,
  read: readonly CachedConversation[],
): CachedConversation[] {
  const rows = before.filter((row) => !keys.has(row.key))
  for (const row of read) if (row.pageId === pageId) rows.push(row)
  return rows.sort(newerFirst)
}

/**
 * The page's rows after writes to `keys` (undefined: any row may have changed): only the written rows of
 * the page are read again when `before` holds the whole page, else every row.
 */
export async function readChangedConversations(
  pageId: string,
  before: readonly CachedConversation[] | undefined,
  keys: ReadonlySet<string> | undefined,
): Promise<readonly CachedConversation[]> {
  if (!before || !keys) return readAllConversations(pageId)
  const mine = new Set([...keys].filter((key) => key.startsWith(`${pageId}:`)))
  if (mine.size === 0) return before
  return mergeChanged(pageId, before, mine, await readInPieces([...mine]))
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  return JSON.stringify(a) === JSON.stringify(b)
}

function sameRow(a: CachedConversation, b: CachedConversation): boolean {
  const keys = Object.keys(a) as (keyof CachedConversation)[]
  return keys.length === Object.keys(b).length && keys.every((k) => sameValue(a[k], b[k]))
}

/**
 * The rows read again, with each row that did not change kept as the object shown before (and the list
 * itself when nothing changed): what is drawn from an unchanged row is not drawn again.
 */
export function keepUnchanged(
  before: readonly CachedConversation[],
  after: readonly CachedConversation[],
): readonly CachedConversation[] {
  const known = new Map(before.map((r) => [r.key, r]))
  let changed = before.length !== after.length
  const rows = after.map((row, i) => {
    const old = known.get(row.key)
    if (old && (old === row || sameRow(old, row))) {
      if (before[i] !== old) changed = true
      return old
    }
    changed = true
    return row
  })
  return changed ? rows : before
}

/** Upserts a page of conversations, keeping what earlier reads learnt about the customer's last message. */
export async function storeConversations(
  pageId: string,
  page: readonly Conversation[],
): Promise<CachedConversation[]> {
  return db.transaction('rw', db.conversations, async () => {
    const previous = await db.conversations.bulkGet(page.map((c) => conversationKey(pageId, c.id)))
    const rows = page.map((c, i) => toCachedConversation(pageId, c, previous[i]))
    await db.conversations.bulkPut(rows)
    return rows
  })
}

export async function setLastCustomerMessageAt(
  pageId: string,
  conversationId: string,
  at: number | undefined,
): Promise<void> {
  if (at === undefined) return
  await db.conversations.update(conversationKey(pageId, conversationId), { lastCustomerMessageAt: at })
}

/**
 * The live connection's seam in one tab: the stream (src/features/live) writes the local database, then says
 * here what changed, and the screens that hold rows in memory (the conversation list, an open chat) merge
 * them. Screens that read through TanStack Query are patched or invalidated by key instead; both are told.
 *
 * Features never import each other, so this small in-tab channel lives in shared.
 */
import type { CachedConversation, CachedMessage } from '../../device/db/db.ts'

export type LiveChange =
  /** A conversation row was updated (snippet, time, unread count) or appeared. */
  | { type: 'conversation'; pageId: string; row: CachedConversation }
  /** A message was added to a conversation's cached history. */
  | { type: 'message'; pageId: string; conversationId: string; row: CachedMessage }
  /**
   * The page's list must be read again from the network: a message for a conversation this device has not
   * cached, or a gap in the stream. `pageId` undefined: every page.
   */
  | { type: 'refetch'; pageId?: string }

type Listener = (change: LiveChange) => void

const listeners = new Set<Listener>()

export function onLiveChange(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function publishLiveChange(change: LiveChange): void {
  for (const listener of [...listeners]) {
    try {
      listener(change)
    } catch (error) {
      console.error('live change listener failed', error)
    }
  }
}

export interface OpenChat {
  pageId: string
  conversationId: string
}

const openChats = new Set<OpenChat>()

/** A chat on screen says so, so a new message in it is read at once rather than counted unread. */
export function registerOpenChat(chat: OpenChat): () => void {
  openChats.add(chat)
  return () => openChats.delete(chat)
}

/** Whether that conversation's chat is open in this tab and the tab is visible. */
export function isChatInView(pageId: string, conversationId: string): boolean {
  if (typeof document !== 'undefined' && document.visibilityState !== 'visible') return false
  for (const chat of openChats)
    if (chat.pageId === pageId && chat.conversationId === conversationId) return true
  return false
}

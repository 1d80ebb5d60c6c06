/** Every page's unread counts as the app's one shared read has them (the home cards show the same). */
import { useSyncExternalStore } from 'react'
import type { LocalUnread } from '../../../shared/live/unread.ts'
import { pagesUnreadNow, subscribePagesUnread } from '../model/unread.ts'

export function usePagesUnread(): Readonly<Record<string, LocalUnread>> | undefined {
  return useSyncExternalStore(subscribePagesUnread, pagesUnreadNow)
}

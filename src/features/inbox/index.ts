export { InboxColumn, type InboxColumnProps } from './components/inbox-column.tsx'
export { PageSidebar, type PageSummary } from './components/page-sidebar.tsx'
export { PageHeader } from './components/page-header.tsx'
export { OfflineIndicator } from './components/offline-indicator.tsx'
export { LiveUpdatesNotice } from './components/live-updates-notice.tsx'
export { useConversationList, type ConversationListState } from './api/use-conversation-list.ts'
export { usePageEntry, type PageEntryState } from './api/use-page-entry.ts'
export { useOnline } from '../../shared/network/use-online.ts'
export { setLastCustomerMessageAt } from './model/cache.ts'
export { useMarkSeen } from './api/use-mark-seen.ts'
export { bumpUnread, markConversationSeen } from './model/unread.ts'
export { usePagesUnread } from './api/use-pages-unread.ts'
export { useConversationStates } from './api/use-conversation-states.ts'
export {
  type InboxRow,
  type ListFilter,
  type ListSort,
  filterSearch,
  parseFilter,
  parseSort,
  toInboxRows,
} from './model/list-view.ts'

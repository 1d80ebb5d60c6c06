export { ChatView, type ChatCustomer, type ChatViewProps } from './components/chat-view.tsx'
/** A conversation's history query key, `['history', pageId, conversationId]` (see api/use-history.ts). */
export { historyKey } from './api/use-history.ts'

/** The chat's query keys: a module of its own, so the live stream's code can name them without the chat's. */
export const historyKeyRoot = ['history'] as const

/** The query key of a conversation's history (src/features/chat/api/use-history.ts). */
export const historyKey = (pageId: string, conversationId: string) =>
  [...historyKeyRoot, pageId, conversationId] as const

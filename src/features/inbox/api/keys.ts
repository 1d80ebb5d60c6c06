/** The inbox's query keys: a module of its own, so the live stream's code can name them without the inbox's. */
export const inboxKeyRoot = ['inbox'] as const

export function conversationsQueryKey(pageId: string) {
  return [...inboxKeyRoot, pageId, 'conversations'] as const
}

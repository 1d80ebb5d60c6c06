/** Graph node shapes built from the sandbox's world (users, pages, conversations, messages). */
import type { SandboxContext } from '../context.ts'
import type { FieldSpec, GraphNode } from '../fields.ts'
import type { DemoConversation, DemoPage, StoredMessage } from '../state/demo.ts'

/** The network's time format: 2026-11-22T10:11:12+0000 */
export function graphTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000')
}

export function avatarUrl(base: string, id: string, type = 'normal'): string {
  return `${base}/avatar/${encodeURIComponent(id)}.jpg?type=${type === 'small' ? 'small' : 'normal'}`
}

export function pictureNode(base: string, id: string, spec?: FieldSpec): GraphNode {
  const type = spec?.modifiers.type === 'small' ? 'small' : 'normal'
  const size = type === 'small' ? 50 : 100
  return { data: { height: size, width: size, is_silhouette: false, url: avatarUrl(base, id, type) } }
}

export function pageParticipant(page: DemoPage): GraphNode {
  return { name: page.name, email: `${page.id}@facebook.com`, id: page.id }
}

export function customerParticipant(conv: DemoConversation): GraphNode {
  return { name: conv.customer.name, email: `${conv.customer.id}@facebook.com`, id: conv.customer.id }
}

export function conversationNode(page: DemoPage, conv: DemoConversation): GraphNode {
  return {
    id: conv.id,
    link: `/${page.id}/inbox/${conv.id}`,
    updated_time: graphTime(conv.updatedMs),
    unread_count: conv.unread,
    message_count: conv.historyLength + conv.extra.length,
    participants: { data: [customerParticipant(conv), pageParticipant(page)] },
    snippet: conv.snippet,
    can_reply: conv.canReply,
  }
}

export function messageNode(
  ctx: SandboxContext,
  page: DemoPage,
  conv: DemoConversation,
  m: StoredMessage,
): GraphNode {
  const me = pageParticipant(page)
  const them = customerParticipant(conv)
  const node: GraphNode = {
    id: m.id,
    created_time: graphTime(m.createdMs),
    from: m.fromPage ? me : them,
    to: { data: [m.fromPage ? them : me] },
    message: m.text,
  }
  if (m.attachment) {
    const url = m.attachment.url || ctx.store.attachments.get(m.attachment.id ?? '') || ''
    node.attachments = {
      data: [
        {
          id: m.attachment.id ?? `${m.id}_a`,
          mime_type: 'image/jpeg',
          name: 'image.jpg',
          image_data: { url, preview_url: url, width: 480, height: 480 },
        },
      ],
    }
  }
  return node
}

/**
 * The three Graph calls the sender makes (send, reusable attachment upload, a conversation's latest messages),
 * on plain fetch so the worker needs nothing from the DOM. Failures are classified by the shared rules.
 */
import { classifyGraphError, networkError } from '../shared/graph/errors.ts'
import type { ChatMessage, Page, SendRequest, SendResult } from '../shared/graph/types.ts'
import type { SenderGraph } from './ports.ts'

export interface GraphLiteOptions {
  baseUrl: string
  version: string
  fetch?: typeof fetch
}

export function createSenderGraph({
  baseUrl,
  version,
  fetch: f = fetch.bind(globalThis),
}: GraphLiteOptions): SenderGraph {
  const root = `${baseUrl.replace(/\/$/, '')}/${version}`

  async function call<T>(path: string, token: string, init?: { body: unknown }): Promise<T> {
    const url = `${root}${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`
    let res: Response
    try {
      res = await f(
        url,
        init
          ? {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(init.body),
            }
          : { method: 'GET' },
      )
    } catch (err) {
      throw networkError(err)
    }
    let body: unknown
    try {
      body = await res.json()
    } catch (err) {
      // The answer was cut off: whether the network acted is unknown, like a network failure.
      if (res.ok) throw networkError(err)
      body = undefined
    }
    if (!res.ok || !body || (typeof body === 'object' && 'error' in body)) {
      throw classifyGraphError(body, res.status, res.headers)
    }
    return body as T
  }

  return {
    send(_pageId, pageToken, req: SendRequest) {
      const message = req.text !== undefined ? { text: req.text } : { attachment: attachmentOf(req) }
      return call<SendResult>('/me/messages', pageToken, {
        body: {
          recipient: { id: req.recipientId },
          messaging_type: req.messagingType,
          ...(req.tag ? { tag: req.tag } : {}),
          message,
        },
      })
    },
    uploadAttachment(_pageId, pageToken, imageUrl) {
      return call<{ attachment_id: string }>('/me/message_attachments', pageToken, {
        body: { message: { attachment: { type: 'image', payload: { url: imageUrl, is_reusable: true } } } },
      })
    },
    messages(conversationId, pageToken, opts) {
      const q = new URLSearchParams({
        fields: 'id,created_time,from,to,message,attachments',
        limit: String(opts?.limit ?? 25),
      })
      if (opts?.after) q.set('after', opts.after)
      return call<Page<ChatMessage>>(`/${encodeURIComponent(conversationId)}/messages?${q}`, pageToken)
    },
  }
}

function attachmentOf(req: SendRequest) {
  const a = req.attachment
  if (!a) return undefined
  return 'attachmentId' in a
    ? { type: 'image', payload: { attachment_id: a.attachmentId } }
    : { type: 'image', payload: { url: a.url, is_reusable: a.isReusable ?? true } }
}

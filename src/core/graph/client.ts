/**
 * The app's one Graph client (docs/product-rules.md#graph-calls), used by the UI and the sender worker. Every
 * call either resolves with a non-empty result or rejects with a classified GraphError; retries and pacing
 * belong to the callers, so this client never retries by itself.
 */
import { ownTask } from '../network/own-task.ts'
import { WINDOW_MESSAGES_LIMIT } from '../policy/window.ts'
import { classifyGraphError, networkError } from './errors.ts'
import { optInTemplate, utilityTemplate } from './delivery.ts'
import type {
  Account,
  ChatMessage,
  Conversation,
  GraphClient,
  Me,
  Page,
  PermissionGrant,
  SendRequest,
  SendResult,
  TokenDebugInfo,
} from './types.ts'
import { ACCOUNT_FIELDS, ME_FIELDS } from './fields.ts'

/** What a Graph client asks of a call: the platform's fetch takes it, and so does the server's transport. */
export interface FetchRequest {
  method: string
  headers: Record<string, string>
  body?: string
  signal?: AbortSignal
}

/** What a Graph client reads of an answer: a Response has it, and so does the server's transport's. */
export interface FetchAnswer {
  status: number
  ok: boolean
  headers: { get(name: string): string | null }
  text(): Promise<string>
}

/** The fetch a Graph client calls (the platform's by default; a test's, or the server's own transport). */
export type Fetch = (url: string, init: FetchRequest) => Promise<FetchAnswer>

export interface GraphClientOptions {
  /** e.g. https://graph.facebook.com or http://localhost:8080/sandbox/graph */
  baseUrl: string
  /** e.g. v25.0 */
  version: string
  fetch?: Fetch
  timeoutMs?: number
}

/** The newest messages come nested, so the messaging window counts from the customer's last message. */
export const CONVERSATION_FIELDS = `id,link,unread_count,updated_time,participants,snippet,can_reply,messages.limit(${WINDOW_MESSAGES_LIMIT}){id,from,created_time}`
export const MESSAGE_FIELDS = 'id,created_time,from,to,message,attachments'
export { ACCOUNT_FIELDS, ME_FIELDS }

export type Query = Record<string, string | number | undefined>

function isEmpty(data: unknown): boolean {
  if (data === null || data === undefined || data === '') return true
  return typeof data === 'object' && Object.keys(data).length === 0
}

/** The one way a Graph call is made: shared by this client and the marketing one (marketing.ts). */
export interface GraphTransport {
  /** `{baseUrl}/{version}`, without a trailing slash. */
  root: string
  /** Resolves with a non-empty JSON answer or rejects with a classified GraphError; never retries. */
  call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, query: Query, body?: unknown): Promise<T>
  /** A GET of an edge answering `{ data: [], paging }`, with the token as `access_token`. */
  paged<T>(path: string, token: string, query: Query): Promise<Page<T>>
}

export function createGraphTransport(options: GraphClientOptions): GraphTransport {
  const root = `${options.baseUrl.replace(/\/$/, '')}/${options.version}`
  const fetch: Fetch = options.fetch ?? ((...a) => globalThis.fetch(...a))

  async function call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    query: Query,
    body?: unknown,
  ): Promise<T> {
    const params = new URLSearchParams()
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v))
    const search = params.size > 0 ? `?${params}` : ''
    let res: FetchAnswer
    let text: string
    await ownTask()
    try {
      res = await fetch(`${root}/${path.replace(/^\//, '')}${search}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(options.timeoutMs ? { signal: AbortSignal.timeout(options.timeoutMs) } : {}),
      })
      text = await res.text()
    } catch (err) {
      throw networkError(err)
    }
    let data: unknown
    try {
      data = text === '' ? undefined : JSON.parse(text)
    } catch {
      // Not JSON (a proxy's error page, a cut answer): classified by its status alone.
      throw classifyGraphError(undefined, res.status, res.headers)
    }
    if (!res.ok || (data && typeof data === 'object' && 'error' in data)) {
      throw classifyGraphError(data, res.status, res.headers)
    }
    if (isEmpty(data)) throw classifyGraphError(undefined, res.status)
    return data as T
  }

  function paged<T>(path: string, token: string, query: Query): Promise<Page<T>> {
    return call<Page<T>>('GET', path, { ...query, access_token: token }).then((page) => {
      if (!Array.isArray(page.data)) throw classifyGraphError(undefined, 200)
      return page
    })
  }

  return { root, call, paged }
}

export function createGraphClient(options: GraphClientOptions): GraphClient {
  const { root, call, paged } = createGraphTransport(options)

  return {
    me: (userToken, fields = ME_FIELDS) => call<Me>('GET', 'me', { fields, access_token: userToken }),

    permissions: (userToken) => paged<PermissionGrant>('me/permissions', userToken, {}).then((p) => p.data),

    accounts: (userToken, opts = {}) =>
      paged<Account>('me/accounts', userToken, { fields: ACCOUNT_FIELDS, limit: opts.limit ?? 100 }),

    conversations: (pageId, pageToken, opts = {}) =>
      paged<Conversation>(`${pageId}/conversations`, pageToken, {
        fields: CONVERSATION_FIELDS,
        platform: 'messenger',
        limit: opts.limit ?? 25,
        after: opts.after,
        before: opts.before,
        user_id: opts.userId,
      }),

    messages: (conversationId, pageToken, opts = {}) =>
      paged<ChatMessage>(`${conversationId}/messages`, pageToken, {
        fields: MESSAGE_FIELDS,
        limit: opts.limit ?? 25,
        after: opts.after,
        before: opts.before,
      }),

    send: (pageId, pageToken, req) =>
      call<SendResult>('POST', `${pageId}/messages`, { access_token: pageToken }, sendBody(req)),

    markSeen: (pageToken, recipientId) =>
      call<{ recipient_id: string }>(
        'POST',
        'me/messages',
        { access_token: pageToken },
        { recipient: { id: recipientId }, sender_action: 'mark_seen' },
      ),

    uploadAttachment: (pageId, pageToken, imageUrl) =>
      call<{ attachment_id: string }>(
        'POST',
        `${pageId}/message_attachments`,
        { access_token: pageToken },
        { message: { attachment: { type: 'image', payload: { url: imageUrl, is_reusable: true } } } },
      ),

    pictureUrl: (userId, pageToken, type = 'small') =>
      `${root}/${encodeURIComponent(userId)}/picture?${new URLSearchParams({ type, access_token: pageToken })}`,

    exchangeToken: (token, appId, appSecret) =>
      call<{ access_token: string; expires_in?: number }>('GET', 'oauth/access_token', {
        grant_type: 'fb_exchange_token',
        client_id: appId,
        client_secret: appSecret,
        fb_exchange_token: token,
      }),

    subscribeApp: (pageId, pageToken, fields) =>
      call<{ success: boolean }>('POST', `${pageId}/subscribed_apps`, {
        subscribed_fields: fields.join(','),
        access_token: pageToken,
      }),

    debugToken: (inputToken, appToken) =>
      call<{ data: TokenDebugInfo }>('GET', 'debug_token', {
        input_token: inputToken,
        access_token: appToken,
      }),
  }
}

/** The Send API body: text or one image attachment, never both (the network answers 100 otherwise). */
export function sendBody(req: SendRequest): Record<string, unknown> {
  const message: Record<string, unknown> = {}
  if (req.text !== undefined) message.text = req.text
  if (req.attachment) {
    message.attachment = {
      type: 'image',
      payload:
        'attachmentId' in req.attachment
          ? { attachment_id: req.attachment.attachmentId }
          : { url: req.attachment.url, is_reusable: req.attachment.isReusable ?? false },
    }
  }
  if (req.optIn) message.attachment = optInTemplate(req.optIn)
  if (req.utility) message.template = utilityTemplate(req.utility)
  if (req.metadata) message.metadata = req.metadata
  return {
    recipient: { id: req.recipientId },
    messaging_type: req.utility ? 'UTILITY' : req.messagingType,
    ...(req.tag ? { tag: req.tag } : {}),
    message,
  }
}

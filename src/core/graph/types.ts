/**
 * Shapes of the Graph API subset Pagecast uses (docs/product-rules.md#graph-calls), as the network documents
 * them, and the classified error every Graph call rejects with. The client implementing `GraphClient` is in
 * client.ts.
 */

export interface Paging {
  cursors?: { before?: string; after?: string }
  next?: string
  previous?: string
}

export interface Page<T> {
  data: T[]
  paging?: Paging
}

export interface Picture {
  data: { url: string; height?: number; width?: number; is_silhouette?: boolean }
}

export interface PermissionGrant {
  permission: string
  status: 'granted' | 'declined' | 'expired'
}

export interface Account {
  id: string
  name: string
  /** Present means connected (docs/product-rules.md#records-and-their-fields). */
  access_token?: string
  category?: string
  picture?: Picture
  fan_count?: number
  tasks?: string[]
  unread_message_count?: number
  unread_notif_count?: number
}

export interface Me {
  id: string
  name: string
  email?: string
  gender?: string
  picture?: Picture
  permissions?: Page<PermissionGrant>
  accounts?: Page<Account>
}

export interface Participant {
  id: string
  name: string
  email?: string
}

export interface Conversation {
  id: string
  unread_count?: number
  updated_time: string
  participants: { data: Participant[] }
  snippet?: string
  can_reply?: boolean
  /** The conversation on the network, relative to its web origin (e.g. `/{page}/inbox/{id}`). */
  link?: string
  /** The newest messages, when asked for with nested field selection (newest first). */
  messages?: { data: Pick<ChatMessage, 'id' | 'from' | 'created_time'>[] }
}

export interface Attachment {
  id?: string
  mime_type?: string
  name?: string
  image_data?: { url: string; preview_url?: string; width?: number; height?: number }
}

export interface ChatMessage {
  id: string
  created_time: string
  from: Participant
  to: { data: Participant[] }
  message: string
  attachments?: { data: Attachment[] }
}

export type MessagingType = 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG' | 'UTILITY'

export interface SendRequest {
  recipientId: string
  messagingType: MessagingType
  tag?: string
  /** Exactly one of text, attachment or an opt-in request. */
  text?: string
  attachment?: { url: string; isReusable?: boolean } | { attachmentId: string }
  /** An opt-in request (the `notification_messages` template); only inside the 24-hour window. */
  optIn?: { title: string; payload: string; imageUrl?: string }
  /**
   * A utility message: the page's approved template in its language, its body parameters in order. Sent with
   * `messaging_type: UTILITY`, also outside the 24-hour window.
   */
  utility?: { name: string; language: string; params: readonly string[] }
  /** Echoed back by the network with the message (`message.metadata`): Pagecast marks its broadcasts so. */
  metadata?: string
}

export interface SendResult {
  recipient_id: string
  message_id: string
  attachment_id?: string
}

/**
 * Classes of Graph failure, decided by code and subcode, never by message text
 * (docs/product-rules.md#graph-error-classes).
 */
export type GraphErrorKind =
  | 'throttle'
  | 'auth'
  | 'page_blocked'
  | 'config'
  | 'outside_window'
  | 'recipient_gone'
  | 'transient'
  | 'network'

export interface GraphErrorBody {
  message: string
  type?: string
  code?: number
  error_subcode?: number
  fbtrace_id?: string
}

/**
 * `GET /debug_token`'s `data` (Graph API reference "Debug-Token"; recorded in tests/fixtures/graph). A token
 * the network cannot read answers `is_valid: false` with an `error` and no other field; `profile_id` is the
 * page of a page token and `user_id` the user it was issued to.
 */
export interface TokenDebugInfo {
  app_id?: string
  type?: string
  application?: string
  data_access_expires_at?: number
  expires_at?: number
  issued_at?: number
  is_valid: boolean
  scopes?: string[]
  user_id?: string
  profile_id?: string
  error?: { code: number; subcode?: number; message: string }
}

export interface GraphClient {
  me(userToken: string, fields?: string): Promise<Me>
  permissions(userToken: string): Promise<PermissionGrant[]>
  accounts(userToken: string, opts?: { limit?: number }): Promise<Page<Account>>
  conversations(
    pageId: string,
    pageToken: string,
    opts?: { limit?: number; after?: string; before?: string; userId?: string },
  ): Promise<Page<Conversation>>
  messages(
    conversationId: string,
    pageToken: string,
    opts?: { limit?: number; after?: string; before?: string },
  ): Promise<Page<ChatMessage>>
  send(pageId: string, pageToken: string, req: SendRequest): Promise<SendResult>
  /**
   * A sender action of the Send API (`POST /me/messages` with `sender_action: mark_seen`): the customer's messages are marked seen on
   * the network, which also clears the conversation's unread_count. Answers `{recipient_id}`.
   */
  markSeen(pageToken: string, recipientId: string): Promise<{ recipient_id: string }>
  uploadAttachment(pageId: string, pageToken: string, imageUrl: string): Promise<{ attachment_id: string }>
  pictureUrl(userId: string, pageToken: string, type?: 'small' | 'normal'): string
  exchangeToken(
    token: string,
    appId: string,
    appSecret: string,
  ): Promise<{ access_token: string; expires_in?: number }>
  /** What the network knows of `inputToken`, asked with the app token (`{app-id}|{app-secret}`, server only). */
  debugToken(inputToken: string, appToken: string): Promise<{ data: TokenDebugInfo }>
  /** `POST /{page-id}/subscribed_apps`: the page's webhooks go to this app for these fields (server only). */
  subscribeApp(pageId: string, pageToken: string, fields: readonly string[]): Promise<{ success: boolean }>
}

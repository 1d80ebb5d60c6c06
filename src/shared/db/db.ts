/**
 * The one Dexie database of the app. Storage names below must not change without a migration: the schema is
 * the ordered, append-only list of versions in src/shared/db/schema.ts. No access token is ever written here.
 */
import { Dexie, type EntityTable } from 'dexie'
import { declareSchema } from './schema.ts'

export interface CachedConversation {
  /** `${pageId}:${id}` */
  key: string
  pageId: string
  id: string
  /** ms since epoch of updated_time */
  updatedAt: number
  customerId: string
  customerName: string
  snippet: string
  unreadCount: number
  canReply: boolean
  /** ms since epoch of the customer's last message, when known (the 24-hour window). */
  lastCustomerMessageAt?: number
  /** The conversation on the network (its Graph `link`, made absolute), when it gives one. */
  link?: string
}

export interface CachedMessage {
  /** `${pageId}:${id}` */
  key: string
  pageId: string
  conversationId: string
  id: string
  createdAt: number
  fromId: string
  fromName: string
  toId: string
  text: string
  imageUrls: string[]
}

export type BulkJobState =
  | 'queued'
  | 'running'
  | 'paused'
  | 'waiting_connection'
  | 'rate_limited'
  | 'needs_signin'
  | 'stopped'
  | 'finished'

export interface BulkJob {
  /** The server's bulk message id. */
  id: string
  pageId: string
  pageName: string
  text: string
  imageUrl?: string
  attachmentId?: string
  tag?: string
  messagingType: 'RESPONSE' | 'MESSAGE_TAG' | 'UPDATE'
  labels: string[]
  total: number
  /** Recipients beyond this index carry the branded footer (-1: none). */
  brandedFrom: number
  state: BulkJobState
  stopReason?: string
  createdAt: number
  /** Persisted end of the pacing wait, so a reload cannot skip it. */
  nextSendAt: number
  /** Incremented by each new lock holder; a send checks it first so a stale holder never fires. */
  lease: number
  sent: number
  rejected: number
  skipped: number
}

export type RecipientState = 'pending' | 'sending' | 'sent' | 'rejected' | 'skipped'

export interface BulkRecipient {
  /** `${jobId}:${recipientId}` */
  key: string
  jobId: string
  recipientId: string
  name: string
  conversationId: string
  order: number
  state: RecipientState
  attempts: number
  /** When the last send was attempted (reconciliation compares message times with it). */
  attemptAt?: number
  error?: string
  branded?: boolean
}

export interface TouchOutboxEntry {
  /** `${jobId}:${recipientId}` */
  key: string
  jobId: string
  recipientId: string
  body: unknown
  createdAt: number
  attempts: number
}

export interface ReplyOutboxEntry {
  id: string
  pageId: string
  conversationId: string
  recipientId: string
  text: string
  imageUrl?: string
  createdAt: number
  state: 'pending' | 'sending' | 'sent' | 'failed'
  attemptAt?: number
  error?: string
}

/** Facts about the device's data; `owner` is the facebook id of the user the data belongs to. */
export interface MetaEntry {
  key: string
  value: string
}

export const db = new Dexie('pagecast') as Dexie & {
  conversations: EntityTable<CachedConversation, 'key'>
  messages: EntityTable<CachedMessage, 'key'>
  bulkJobs: EntityTable<BulkJob, 'id'>
  bulkRecipients: EntityTable<BulkRecipient, 'key'>
  touchOutbox: EntityTable<TouchOutboxEntry, 'key'>
  replyOutbox: EntityTable<ReplyOutboxEntry, 'id'>
  meta: EntityTable<MetaEntry, 'key'>
}

declareSchema(db)

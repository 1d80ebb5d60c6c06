/**
 * The one Dexie database of the app. Storage names below must not change without a migration: the schema is
 * the ordered, append-only list of versions in src/device/db/schema.ts. No access token is ever written here.
 */
import type { ConversationState } from '../../core/contracts/conversation-states.ts'
import { Dexie, type EntityTable, type Table } from 'dexie'
import type { MessagingPolicyName } from '../../core/policy/tags.ts'
import type { BudgetKind, ContentKind, JobKind, RecipientWay } from '../../core/contracts/marketing.ts'
import type { UtilityContent } from '../../core/graph/template.ts'
import type { AudienceLabels } from '../../core/contracts/api.ts'
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
  /**
   * When the owner last opened the conversation (ms). A network row no newer than this counts as read even
   * if the network's unread_count has not caught up with the mark_seen yet.
   */
  seenAt?: number
  /** Opened here, but the network has not yet taken the mark_seen (offline, or it failed): it is sent again. */
  seenPending?: boolean
  /**
   * What the network's list showed at its last read: the ids of the newest messages it nested, and the time
   * of the oldest of them (the conversation's updated_time when it nested none). A live message among them, or
   * older, is already in the network's unread_count.
   */
  listed?: { ids: string[]; from: number }
  /** Customer messages counted unread on this device since that read (live, newer than the list). */
  liveUnread?: { id: string; at: number }[]
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
  /** Handed over: the server sends it while the app is closed; this device takes it back on return. */
  | 'on_server'

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
  /**
   * What the job is, as its server record was created (the same name there): a marketing job is sent by the
   * server's marketing sender only, never by this device. Rows from before it get it in schema version 33.
   */
  kind: JobKind
  // The fields below came after the base shape; they are optional so rows written by any version stay readable.
  /** Branded messages were authorised when the job started (the footer replaces a stop at 0 available). */
  brandedAuthorised?: boolean
  /** The server has the recipient list (PUT /messages/{id}/recipients). */
  recipientsSynced?: boolean
  /**
   * How many of the audience, in order, the server has acknowledged so far: the upload goes on from there
   * after a failure, a reload or a closed tab (absent: none).
   */
  recipientsUploaded?: number
  /** The server was told the final state. */
  serverStateSynced?: boolean
  policy?: MessagingPolicyName
  /**
   * The index of the first recipient the sender has not reached: recipients at or past it have no state row
   * and are pending. Jobs from before the chunked audience have a row for everyone (cursor = total).
   */
  cursor?: number
  /** Recipients from this index on were skipped in one go (no rows are written for them). */
  skippedFrom?: number
  /** The owner chose "Keep sending when I close the app": the job is handed to the server when the app goes. */
  keepSending?: boolean
  /** The job's lease on the server (moved on by every hand-over and take-back). */
  serverLease?: number
  /** What the job sends: the owner's text (absent), an opt-in request with `optinTitle`, or a utility message. */
  contentKind?: ContentKind
  optinTitle?: string
  /** A utility job's template and parameters (schema version 38 names the kind). */
  utility?: UtilityContent
  /** Written where the text takes a recipient's first name and the network has none. */
  nameFallback?: string
  /** The page's custom labels the audience was chosen by. */
  audienceLabels?: AudienceLabels
  /** Some recipients are reached as marketing messages: the job sends on the server, with this campaign budget. */
  marketing?: {
    budgetKind: BudgetKind
    budgetMinor: number
    currency: string
    estimateMinor: number
    /** Marketing messages sent so far and the network's spend reading (minor units), from the server's progress. */
    sent?: number
    spendMinor?: number | null
  }
}

/** Who a job goes to, in order. */
export interface AudienceMember {
  recipientId: string
  name: string
  conversationId: string
  /** How this recipient is reached; absent means inside the window (standard). */
  way?: RecipientWay
}

/** About CHUNK_SIZE recipients of a job's audience as parallel arrays: compact, and written in one go. */
export interface RecipientChunk {
  jobId: string
  chunk: number
  ids: string[]
  names: string[]
  conversations: string[]
  /** Each member's way, when any is not standard (absent: all standard). Not indexed: no schema change. */
  ways?: RecipientWay[]
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
  /** Sends tried (each write-ahead `sending`), whatever their outcome. */
  attempts: number
  /**
   * Sends that answered a transient error: only these count towards the retry bound (never a throttled try,
   * one whose answer never came, or one refused for the page token). Absent on rows written before it.
   */
  failures?: number
  /** When the last send was attempted (reconciliation compares message times with it). */
  attemptAt?: number
  error?: string
  branded?: boolean
  /** The image went out; only the text remains (never send the image twice). */
  imageSent?: boolean
  /** Reached as a marketing message: only the server sends it (absent: standard). */
  way?: RecipientWay
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
  /** The image part went through; a retry sends only the text. */
  imageSent?: boolean
}

/** What the inbox's sidebar shows of a page, kept for offline reading (never the token). */
export interface PageSummary {
  id: string
  name: string
  category?: string
  pictureUrl?: string
}

/**
 * The background sync of one page's conversations into `conversations`: where it stopped (the network's
 * `after` cursor), how many rows it has stored, and whether it reached the end of the list.
 */
export interface InboxSyncState {
  pageId: string
  /** The cursor of the next page to read; undefined with `done` (or before the first page). */
  after?: string
  /** Conversations stored by this sync so far. */
  synced: number
  done: boolean
  /** When the sync started from the head of the list (ms). */
  startedAt: number
  /** When it reached the end (ms). */
  finishedAt?: number
  /**
   * A sync of the page reached the end once: every conversation is in the cache, kept current by the live
   * stream, also while a later sync reads the list again from the head.
   */
  whole?: boolean
}

/**
 * What the network said was delivered to and read by one customer of a page: watermarks (ms since epoch).
 * Every page message created at or before a watermark is delivered (read). They only move forward.
 */
export interface ConversationReceipts {
  /** `${pageId}:${customerId}` */
  key: string
  pageId: string
  customerId: string
  delivered?: number
  read?: number
}

/** The delivered and read counts of a bulk message, as the server counts them from the watermarks. */
export interface BulkReceipts {
  /** The server's bulk message id (the job id). */
  id: string
  pageId: string
  delivered: number
  read: number
}

/** One of a page's custom labels, as the network listed it. */
export interface CachedPageLabel {
  /** `${pageId}:${id}` */
  key: string
  pageId: string
  id: string
  name: string
}

/** The labels on one customer of a page, as last read from the network or set here. */
export interface CachedCustomerLabels {
  /** `${pageId}:${customerId}` */
  key: string
  pageId: string
  customerId: string
  labelIds: string[]
  /** When they were read or set (ms). */
  at: number
}

/**
 * The server's needs-reply state of one conversation (src/core/contracts/conversation-states.ts), kept for
 * offline reading and the list's filters.
 */
export interface CachedConversationState extends ConversationState {
  /** `${pageId}:${customerId}` (stateKey) */
  key: string
}

/** A conversation state's key in the local database. */
export const stateKey = (pageId: string, customerId: string) => `${pageId}:${customerId}`

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
  bulkRecipientChunks: Table<RecipientChunk, [string, number]>
  touchOutbox: EntityTable<TouchOutboxEntry, 'key'>
  replyOutbox: EntityTable<ReplyOutboxEntry, 'id'>
  inboxPages: EntityTable<PageSummary, 'id'>
  meta: EntityTable<MetaEntry, 'key'>
  inboxSync: EntityTable<InboxSyncState, 'pageId'>
  receipts: EntityTable<ConversationReceipts, 'key'>
  bulkReceipts: EntityTable<BulkReceipts, 'id'>
  pageLabels: EntityTable<CachedPageLabel, 'key'>
  customerLabels: EntityTable<CachedCustomerLabels, 'key'>
  conversationStates: EntityTable<CachedConversationState, 'key'>
}

declareSchema(db)

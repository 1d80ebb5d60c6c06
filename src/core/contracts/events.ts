/**
 * The live stream `GET /api/v2/events` (Server-Sent Events): what the server sends an owner's open apps.
 * Each event is `id: <number>`, `event: <type>`, `data: <json>`; the app resumes with `?since=<last id>` (or the
 * `Last-Event-ID` header). Every data object names its page; times are ISO strings.
 */
import { z } from './zod.ts'
import { conversationState, labelsEvent, replyingEvent } from './conversation-states.ts'
import { jobMarketing } from './marketing.ts'

/** The app's tab id, a UUID it makes once per tab. */
export const tabId = z.string().check(z.uuid())

export const messageEvent = z.object({
  pageId: z.string(),
  /** The customer's page-scoped id (PSID): the conversation's participant. */
  customerId: z.string(),
  mid: z.string(),
  text: z.nullable(z.string()),
  attachments: z.array(z.object({ type: z.string(), url: z.nullable(z.string()) })),
  createdTime: z.string(),
  /** True for the page's own messages (echoes of a send, from this app or any other). */
  fromPage: z.boolean(),
  /** A page message that is a bulk, marketing or opt-in send, not a person's answer. */
  broadcast: z.optional(z.boolean()),
  customerName: z.optional(z.string()),
})
export type MessageEvent = z.infer<typeof messageEvent>

/** Every page message to this customer sent at or before `watermark` was delivered. */
export const deliveryEvent = z.object({
  pageId: z.string(),
  customerId: z.string(),
  watermark: z.string(),
  mids: z.optional(z.array(z.string())),
})
export type DeliveryEvent = z.infer<typeof deliveryEvent>

/** Every page message to this customer sent at or before `watermark` was read. */
export const readEvent = z.object({ pageId: z.string(), customerId: z.string(), watermark: z.string() })
export type ReadEvent = z.infer<typeof readEvent>

/** New delivered / read totals of a bulk message (its server record id, as `GET /api/v2/messages` names it). */
export const bulkReceiptsEvent = z.object({
  pageId: z.string(),
  messageId: z.string(),
  delivered: z.number().check(z.int()),
  read: z.number().check(z.int()),
})
export type BulkReceiptsEvent = z.infer<typeof bulkReceiptsEvent>

/**
 * How far a bulk message has got (its server record id), whoever sends it (the server, or a device whose
 * results the server records): at most one every 2 s per job while it sends, and one when it ends. `state`: still sending (`running`, `rate_limited`,
 * `waiting_connection`), waiting for the owner to sign in again (`needs_signin`), or ended. Only the newest
 * of a job is kept for a reconnecting app (it supersedes the earlier ones).
 */
export const bulkProgressEvent = z.object({
  pageId: z.string(),
  messageId: z.string(),
  sent: z.number().check(z.int()),
  rejected: z.number().check(z.int()),
  skipped: z.number().check(z.int()),
  total: z.number().check(z.int()),
  state: z.enum(['running', 'rate_limited', 'waiting_connection', 'needs_signin', 'finished', 'stopped']),
  stopReason: z.optional(z.string()),
  /** The job's marketing messages: how many went, the budget and what the network reports spent. */
  marketing: z.optional(jobMarketing),
  /** Who sends the job: the server, or one of the owner's devices (whose own card ignores the event). */
  sender: z.enum(['server', 'device']),
  /** The job's lease epoch when the event was published (see `storedMessage.lease`). */
  lease: z.optional(z.number().check(z.int(), z.nonnegative())),
})
export type BulkProgressEvent = z.infer<typeof bulkProgressEvent>

/** Whether subscribing the page to the webhooks worked when it was connected. */
export const pageSubscriptionEvent = z.object({
  pageId: z.string(),
  ok: z.boolean(),
  error: z.optional(z.string()),
})
export type PageSubscriptionEvent = z.infer<typeof pageSubscriptionEvent>

/**
 * A page's marketing subscriber list changed (an opt-in, opt-out or resume webhook, a token list sync, or
 * marketing messages turned on or off): the new counts; the app refetches the page's marketing state.
 */
export const marketingSubscribersEvent = z.object({
  pageId: z.string(),
  active: z.number().check(z.int()),
  stopped: z.number().check(z.int()),
})
export type MarketingSubscribersEvent = z.infer<typeof marketingSubscribersEvent>

/**
 * The network no longer vouches for the user's role on the page (a page token check failed, or the user removed
 * the app): the page's calls answer 403 `page_access_revoked` and its events stop until it is opened again.
 */
export const pageAccessLostEvent = z.object({
  pageId: z.string(),
  reason: z.enum(['role_lost', 'app_removed']),
})
export type PageAccessLostEvent = z.infer<typeof pageAccessLostEvent>

/**
 * A page template's review ended or its status changed (the network's `message_template_status_update`):
 * the app reads the page's templates again; a rejection carries the network's reason.
 */
export const templateStatusEvent = z.object({
  pageId: z.string(),
  templateId: z.string(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  reason: z.nullable(z.string()),
})
export type TemplateStatusEvent = z.infer<typeof templateStatusEvent>

/** Events were missed that the server no longer has: reload what is shown (not stored, carries no page). */
export const refetchEvent = z.object({ reason: z.enum(['gap', 'too_many']) })
export type RefetchEvent = z.infer<typeof refetchEvent>

export const ownerEventSchemas = {
  message: messageEvent,
  delivery: deliveryEvent,
  read: readEvent,
  bulk_receipts: bulkReceiptsEvent,
  bulk_progress: bulkProgressEvent,
  page_subscription: pageSubscriptionEvent,
  marketing_subscribers: marketingSubscribersEvent,
  page_access_lost: pageAccessLostEvent,
  template_status: templateStatusEvent,
  /** A conversation's needs-reply state changed (a message, an answer, a broadcast, "done", opened). */
  conversation_state: conversationState,
  /** A person of the page is writing a reply in a chat; it lapses at `until` unless repeated. */
  replying: replyingEvent,
  /** A person of the page changed a customer's labels (or the page's) in the app: read them again. */
  labels: labelsEvent,
} as const
export type OwnerEventType = keyof typeof ownerEventSchemas
export type OwnerEventData<T extends OwnerEventType> = z.infer<(typeof ownerEventSchemas)[T]>
/** The first event of a stream opened without `since`: its id is where a reconnection resumes from. */
export const readyEvent = z.object({})
export type StreamEventType = OwnerEventType | 'refetch' | 'ready'

/** `POST /api/v2/presence`: the app reports each tab's visibility (on every change, every 60 s while visible). */
export const presenceBody = z.strictObject({ tab: tabId, visible: z.boolean() })
export type PresenceBody = z.infer<typeof presenceBody>

/** The result of subscribing a page to the webhooks, as `POST /api/v2/page` reports it beside the subscription. */
export const pageWebhooks = z.object({ ok: z.boolean(), error: z.optional(z.string()) })
export type PageWebhooks = z.infer<typeof pageWebhooks>

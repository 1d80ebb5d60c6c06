/**
 * Who is waiting for an answer (docs/product-rules.md#who-is-waiting): the server's state of each (page,
 * customer), the same for every person who manages the page, as `GET /api/v2/pages/:pageId/conversation-states`
 * lists it and the live stream's `conversation_state` event carries it. Times are ISO strings.
 */
import { z } from './zod.ts'

export const conversationState = z.object({
  pageId: z.string(),
  customerId: z.string(),
  /** The customer's last message: its time and its text (their own last words). */
  customerAt: z.nullable(z.string()),
  customerText: z.nullable(z.string()),
  /** The customer's messages since a person of the page last answered or opened the chat. */
  unread: z.number().check(z.int(), z.nonnegative()),
  /** When a person of the page last answered (a bulk, marketing or opt-in send is no answer). */
  answeredAt: z.nullable(z.string()),
  /** When someone marked the conversation done without answering, and who (their name). */
  doneAt: z.nullable(z.string()),
  doneBy: z.nullable(z.string()),
  /** The page's last bulk, marketing or opt-in send to the customer, shown apart from the customer's words. */
  broadcastAt: z.nullable(z.string()),
  broadcastText: z.nullable(z.string()),
  /** The customer's last message is after every answer and every "done". */
  needsReply: z.boolean(),
})
export type ConversationState = z.infer<typeof conversationState>

/** `{ data: ConversationState[] }`: every known state of the page's conversations. */
export const conversationStatesResponse = z.object({ data: z.array(conversationState) })

/** A person of the page is writing a reply to this customer (a live event; not kept). */
export const replyingEvent = z.object({
  pageId: z.string(),
  customerId: z.string(),
  /** The app user writing, by id (their own tabs ignore it) and name ("Ana is replying"). */
  userId: z.string(),
  name: z.string(),
  /** Until when it holds unless repeated (ISO). */
  until: z.string(),
})
export type ReplyingEvent = z.infer<typeof replyingEvent>

/** `POST /api/v2/pages/:pageId/replying`: this user is typing a reply to the customer. */
export const replyingBody = z.strictObject({ customer_id: z.string().check(z.regex(/^\d{1,32}$/)) })

/**
 * A person of the page changed labels in the app (the network tells no one): the others' open chats and lists
 * read them again. `customerIds` are the customers whose labels changed; none when a label was deleted from
 * the page (it comes off everyone).
 */
export const labelsEvent = z.object({ pageId: z.string(), customerIds: z.array(z.string()) })
export type LabelsEvent = z.infer<typeof labelsEvent>

/** `POST /api/v2/pages/:pageId/labels-changed`: this user changed these customers' labels (or the page's). */
export const labelsChangedBody = z.strictObject({
  customer_ids: z.array(z.string().check(z.regex(/^\d{1,32}$/))).check(z.maxLength(100)),
})

/** How long a "replying" lasts without another; the app repeats it at most every REPLYING_EVERY_MS. */
export const REPLYING_FOR_MS = 8_000
export const REPLYING_EVERY_MS = 4_000

/** The metadata a bulk, marketing or opt-in send carries, echoed by the network: such a send is no answer. */
export const BROADCAST_METADATA = 'pagecast:broadcast'

const isoTime = z.string().check(z.iso.datetime({ offset: true }))

/**
 * One conversation as the network's list gave it when the app read it: the customer's last message (time,
 * and its words when the customer wrote last), the network's unread count, and the page's last message when
 * it came after the customer's. The server keeps it as the conversation's state when it has none yet, so a
 * page's history from before it was connected is not lost at its first broadcast.
 */
/** The longest customer text, and the highest unread count, a history item carries. */
export const MAX_HISTORY_TEXT_CHARS = 2_000
export const MAX_HISTORY_UNREAD = 100_000

export const conversationHistoryItem = z.strictObject({
  customer_id: z.string().check(z.regex(/^\d{1,32}$/)),
  customer_at: z.nullable(isoTime),
  customer_text: z.nullable(z.string().check(z.maxLength(MAX_HISTORY_TEXT_CHARS))),
  unread: z.number().check(z.int(), z.nonnegative(), z.maximum(MAX_HISTORY_UNREAD)),
  page_at: z.nullable(isoTime),
})
export type ConversationHistoryItem = z.infer<typeof conversationHistoryItem>

/** At most one list page of the network (100 conversations) per call. */
export const MAX_HISTORY_ITEMS = 100

/** `POST /api/v2/pages/:pageId/conversation-history`: answers the states of the customers named. */
export const conversationHistoryBody = z.strictObject({
  conversations: z.array(conversationHistoryItem).check(z.minLength(1), z.maxLength(MAX_HISTORY_ITEMS)),
})

/**
 * Payloads and responses of the product API (`/api/v2`, docs/product-rules.md#product-api). The server
 * validates every body with these schemas; the app builds its payloads with the same types.
 */
import { z } from './zod.ts'
import { LABEL_NAME_MAX, MESSAGE_TEXT_MAX } from '../constants/limits.ts'
import {
  placeholderCount,
  TEMPLATE_BODY_MAX,
  TEMPLATE_NAME_PATTERN,
  TEMPLATE_PARAM_MAX,
} from '../graph/template.ts'
import {
  contentKind,
  jobKind,
  jobMarketing,
  networkMessageId,
  networkToken,
  optinTitle,
  recipientWay,
  type JobKind,
} from './marketing-core.ts'

/**
 * A utility job's template: the page's approved template by name and language, its body (kept for the
 * conversation's text and the arrival check) and one parameter per placeholder, which may hold `{first name}`.
 */
export const utilityContent = z
  .strictObject({
    name: z.string().check(z.regex(TEMPLATE_NAME_PATTERN, 'Must be a template name.')),
    language: z.string().check(z.regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'Must be a language code.')),
    body: z.string().check(z.minLength(1), z.maxLength(TEMPLATE_BODY_MAX)),
    params: z
      .array(
        z
          .string()
          .check(z.trim(), z.minLength(1, 'Fill in every placeholder.'), z.maxLength(TEMPLATE_PARAM_MAX)),
      )
      .check(z.maxLength(20)),
  })
  .check(
    z.refine((u) => u.params.length === placeholderCount(u.body), {
      message: 'One value per placeholder.',
      path: ['params'],
    }),
  )

/** Only web addresses: `javascript:` and other schemes never reach a stored record or a redirect. */
const httpUrl = z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL.' }).check(z.maxLength(2048))

export const loginBody = z.strictObject({
  access_token: networkToken(),
  referral: z.nullish(z.string().check(z.maxLength(100))),
  coupon: z.nullish(z.string().check(z.maxLength(100))),
})
export type LoginBody = z.infer<typeof loginBody>

/** One session of the signed-in user as `GET /api/v2/sessions` lists it: never the token nor its hash. */
export const sessionInfo = z.object({
  id: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  /** "Chrome · Android": the browser and system named from the User-Agent captured at login; '' unknown. */
  device: z.string(),
  user_agent: z.nullable(z.string()),
  /** The session of the caller. */
  current: z.boolean(),
})
export type SessionInfo = z.infer<typeof sessionInfo>
export const sessionsResponse = z.object({ data: z.array(sessionInfo) })

/** `POST /api/v2/sessions/revoke-others` takes no field (an empty object or no body). */
export const revokeOthersBody = z.nullish(z.strictObject({}))
export const revokeOthersResponse = z.object({ revoked: z.number().check(z.int()) })

export const subscriptionState = z.object({
  access: z.boolean(),
  access_type: z.nullable(z.enum(['trial', 'paid'])),
  accepted_terms: z.boolean(),
  facebook_id: z.string(),
  is_unlimited: z.boolean(),
  unlimited_blocked: z.boolean(),
  available_messages: z.number().check(z.int()),
  subscriptions_messages: z.number().check(z.int()),
  addons_messages: z.number().check(z.int()),
  use_branded_messages: z.boolean(),
  referral: z.optional(z.nullable(z.string())),
  coupon: z.optional(z.nullable(z.string())),
})
export type SubscriptionState = z.infer<typeof subscriptionState>

export const apiUser = z.object({
  id: z.string(),
  facebook_id: z.string(),
  name: z.string(),
  email: z.nullable(z.string()),
  subscription: subscriptionState,
})
export type ApiUser = z.infer<typeof apiUser>

export const loginResponse = z.object({ data: z.object({ token: z.string(), user: apiUser }) })
export type LoginResponse = z.infer<typeof loginResponse>

export const mySubscription = z.object({
  current_period_end: z.string(),
  cancel_at_period_end: z.boolean(),
  product: z.string(),
  /** USD */
  amount: z.number(),
  created: z.string(),
})
export type MySubscription = z.infer<typeof mySubscription>

export const confirmBrandedBody = z.strictObject({ use_branded_messages: z.literal(true) })

export const pageBody = z.strictObject({
  id: z.string().check(z.regex(/^\d{1,32}$/)),
  name: z.string().check(z.minLength(1), z.maxLength(300)),
  category: z.nullish(z.string().check(z.maxLength(300))),
  picture: z.nullish(z.string().check(z.maxLength(2048))),
  fan_count: z.nullish(z.number().check(z.int(), z.nonnegative())),
  /** The page token from the accounts list: the server asks the network whether the caller manages the page. */
  access_token: networkToken(),
})
export type PageBody = z.infer<typeof pageBody>

/** `GET /page/standing?ids=1,2`: the pages of the caller's home whose standing to ask (up to 200). */
export const pageStandingQuery = z.strictObject({
  ids: z
    .string()
    .check(z.regex(/^\d{1,32}(,\d{1,32}){0,199}$/, 'a comma-separated list of up to 200 page ids')),
})

/** A page the caller cannot use: banned from Pagecast, or the caller's access to it revoked. */
export type PageStanding = 'banned' | 'revoked'

export const extendTokenBody = z.strictObject({
  access_token: networkToken(),
  page_id: z.optional(z.string()),
})

/** The labels a bulk message's audience was chosen by: customers with any of them, or with all. */
export const audienceLabels = z.strictObject({
  match: z.enum(['any', 'all']),
  labels: z
    .array(
      z.strictObject({
        id: z.string().check(z.regex(/^\d{1,32}$/)),
        name: z.string().check(z.minLength(1), z.maxLength(LABEL_NAME_MAX)),
      }),
    )
    .check(z.minLength(1), z.maxLength(100)),
})
export type AudienceLabels = z.infer<typeof audienceLabels>

export const createMessageBody = z
  .strictObject({
    page_id: z.string().check(z.regex(/^\d{1,32}$/)),
    message_type_id: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    message: z.string().check(z.minLength(1), z.maxLength(MESSAGE_TEXT_MAX)),
    image_url: z.nullish(httpUrl),
    label: z.string().check(z.maxLength(2000)),
    tag: z.nullish(z.string().check(z.maxLength(64))),
    total_messages: z.number().check(z.int(), z.positive(), z.lte(1_000_000)),
    branded_messages_amount: z.number().check(z.int(), z.nonnegative(), z.lte(1_000_000)),
    /** An opt-in request ("Ask to subscribe") instead of a text message; absent means text. */
    content_kind: z.optional(contentKind),
    optin_title: z.optional(optinTitle),
    /** A utility message's template and parameters (content_kind `utility`). */
    utility: z.optional(utilityContent),
    /**
     * What the job is, fixed here for its whole life (absent: opt-in requests for an opt-in job, else
     * standard). Only a marketing job may have marketing recipients and a campaign.
     */
    kind: z.optional(jobKind),
    /** The page's custom labels the audience was chosen by (absent: no label filter). */
    audience_labels: z.optional(audienceLabels),
    /** Written where the text takes a recipient's first name and the network has none. */
    name_fallback: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(40))),
  })
  .check(
    z.refine((b) => b.content_kind !== 'optin_request' || b.optin_title !== undefined, {
      message: 'An opt-in request needs a title.',
      path: ['optin_title'],
    }),
    z.refine((b) => (b.content_kind === 'utility') === (b.utility !== undefined), {
      message: 'A utility message needs a template.',
      path: ['utility'],
    }),
    z.refine((b) => b.branded_messages_amount <= b.total_messages, {
      message: 'The branded messages cannot be more than the total messages.',
      path: ['branded_messages_amount'],
    }),
    z.refine(
      (b) => b.kind === undefined || (b.kind === 'optin_request') === (b.content_kind === 'optin_request'),
      {
        message: 'An opt-in job is of kind optin_request, and only an opt-in job is.',
        path: ['kind'],
      },
    ),
    z.refine((b) => b.kind === undefined || (b.kind === 'utility') === (b.content_kind === 'utility'), {
      message: 'Utility content needs kind utility.',
      path: ['kind'],
    }),
  )
export type CreateMessageBody = z.infer<typeof createMessageBody>

/** The kind a job is created with: the one given, else what its content says. */
export function createdKind(body: Pick<CreateMessageBody, 'kind' | 'content_kind'>): JobKind {
  if (body.kind) return body.kind
  if (body.content_kind === 'utility') return 'utility'
  return body.content_kind === 'optin_request' ? 'optin_request' : 'standard'
}

export const touchBody = z.strictObject({
  _method: z.literal('PUT'),
  status: z.enum(['OK', 'NG']),
  recipient_id: z.string().check(z.minLength(1), z.maxLength(64)),
  error_data: z.nullish(
    z.object({
      error_message: z.string().check(z.maxLength(4000)),
      recipent_id: z.string().check(z.maxLength(64)),
      recipent_name: z.optional(z.string().check(z.maxLength(300))),
    }),
  ),
  sent_as_branded: z._default(z.boolean(), false),
  /** The network's id of the delivered message (an opt-in request's shows in the chats as one). */
  message_id: z.optional(networkMessageId),
  /** The epoch of the sender's lease: a device's result of an earlier epoch is refused (409). */
  epoch: z.optional(z.number().check(z.int(), z.nonnegative())),
})
export type TouchBody = z.input<typeof touchBody>

/** A recipient the device attempted without knowing whether the send arrived (reconciled before any retry). */
export const uncertainRecipient = z.strictObject({
  recipient_id: z.string().check(z.minLength(1), z.maxLength(64)),
  /** Milliseconds since the epoch: when the send was attempted. */
  attempt_at: z.number().check(z.int(), z.nonnegative()),
  image_sent: z._default(z.boolean(), false),
  branded: z._default(z.boolean(), false),
})
export type UncertainRecipient = z.input<typeof uncertainRecipient>

/**
 * `POST /messages/:id/handover`: the device gives the job to the server. `lease` is the job's lease as the
 * device last got it (0 before any hand-over); `cursor` how many recipients, in order, the device reached;
 * `results` the touches it had not delivered yet; `uncertain` the sends it cannot tell arrived.
 */
export const handoverBody = z.strictObject({
  lease: z.number().check(z.int(), z.nonnegative()),
  page_token: networkToken(2000),
  next_send_at: z.nullish(z.number().check(z.int(), z.nonnegative())),
  messaging_type: z._default(z.enum(['RESPONSE', 'UPDATE', 'MESSAGE_TAG']), 'RESPONSE'),
  branded_from: z._default(z.number().check(z.int(), z.gte(-1)), -1),
  /** Absent when the page is closing and the device could not read it: see UNCERTAIN_TAIL on the server. */
  cursor: z.nullish(z.number().check(z.int(), z.nonnegative())),
  attachment_id: z.nullish(z.string().check(z.maxLength(200))),
  results: z._default(z.array(touchBody).check(z.maxLength(5_000)), []),
  uncertain: z._default(z.array(uncertainRecipient).check(z.maxLength(5_000)), []),
  /** The job's kind as the device knows it: the server refuses a hand-over of another kind's job. */
  kind: z.optional(jobKind),
})
export type HandoverBody = z.input<typeof handoverBody>

/**
 * `POST /messages/:id/lease`: a device takes or renews the job's lease. `epoch` is the one it holds (none when
 * taking it); with `keep_sending` the page token (sealed on the server) lets the server go on if it lapses.
 */
export const leaseBody = z.strictObject({
  epoch: z.nullish(z.number().check(z.int(), z.nonnegative())),
  /**
   * The asking browser profile's stable id (kept in its IndexedDB; not a secret): the profile that holds
   * the lease takes it back at once, with the next epoch, even without its epoch (a reload, a crash).
   */
  holder: z.optional(
    z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, 'Must be 8 to 64 letters, digits, "-" or "_".')),
  ),
  keep_sending: z._default(z.boolean(), false),
  page_token: z.optional(networkToken(2000)),
})
export type LeaseBody = z.output<typeof leaseBody>

/** `POST /messages/:id/reserve`: the holder of `epoch` is about to send these recipients. */
export const reserveBody = z.strictObject({
  epoch: z.number().check(z.int(), z.nonnegative()),
  recipients: z
    .array(
      z.strictObject({
        recipient_id: z.string().check(z.minLength(1), z.maxLength(64)),
        branded: z._default(z.boolean(), false),
        image_sent: z._default(z.boolean(), false),
      }),
    )
    .check(z.minLength(1), z.maxLength(50)),
})
export type ReserveBody = z.input<typeof reserveBody>

/** `POST /messages/scheduled`: a send that starts at `scheduled_at` (epoch ms), its audience computed then. */
export const scheduleBody = z.strictObject({
  page_id: z.string().check(z.regex(/^\d{1,32}$/)),
  message: z.string().check(z.minLength(1), z.maxLength(MESSAGE_TEXT_MAX)),
  image_url: z.nullish(httpUrl),
  label: z.string().check(z.maxLength(2000)),
  tag: z.nullish(z.string().check(z.maxLength(64))),
  messaging_type: z._default(z.enum(['RESPONSE', 'UPDATE', 'MESSAGE_TAG']), 'RESPONSE'),
  scheduled_at: z.number().check(z.int(), z.positive()),
  /** The owner's IANA time zone, e.g. Asia/Phnom_Penh: the cards show the time in it. */
  time_zone: z.string().check(z.minLength(1), z.maxLength(64)),
  page_token: networkToken(2000),
  /** Customers waiting for an answer are left out unless this is true. */
  include_waiting: z._default(z.boolean(), false),
})
export type ScheduleBody = z.input<typeof scheduleBody>

/** `PATCH /messages/:id/scheduled`: what may change before the job starts. */
export const scheduleEditBody = z.strictObject({
  message: z.optional(z.string().check(z.minLength(1), z.maxLength(MESSAGE_TEXT_MAX))),
  scheduled_at: z.optional(z.number().check(z.int(), z.positive())),
  time_zone: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
})

/** What the device needs to go on after `POST /messages/:id/take-back` (results: the recipients list). */
export interface TakeBackResponse {
  lease: number
  sender: 'device'
  state: string
  next_send_at: number | null
  attachment_id: string | null
  uncertain: { recipient_id: string; attempt_at: number; image_sent: boolean; branded: boolean }[]
}

export const touchResponse = z.object({
  available_messages: z.number().check(z.int()),
  subscription: subscriptionState,
})
export type TouchResponse = z.infer<typeof touchResponse>

export const checkoutBody = z.strictObject({
  price_id: z.string().check(z.minLength(1), z.maxLength(100)),
  is_addon: z.optional(z.boolean()),
  success_url: httpUrl,
  cancel_url: httpUrl,
  referral: z.nullish(z.string().check(z.maxLength(100))),
  coupon: z.nullish(z.string().check(z.maxLength(100))),
})
export type CheckoutBody = z.infer<typeof checkoutBody>

export const cancelSubscriptionBody = z.strictObject({
  cancellation_reason: z
    .string({ error: 'Required' })
    .check(z.trim(), z.minLength(1, 'Required'), z.maxLength(2000)),
})

export const termsResponse = z.object({ content: z.string(), created_at: z.string() })
export type Terms = z.infer<typeof termsResponse>

/** The error bodies (docs/product-rules.md#error-catalogue). */
export interface ApiErrorBody {
  message: string
  errors?: Record<string, string[]>
}

/** `GET /api/v2/user` answers `{ data: ApiUser }`; the subscription state sits at `data.subscription`. */
export const userResponse = z.object({ data: apiUser })
export type UserResponse = z.infer<typeof userResponse>

/** `GET /api/v2/user/available-messages` answers the same shape as a touch. */
export const availableMessagesResponse = touchResponse
export type AvailableMessagesResponse = TouchResponse

/** `POST /api/v2/page`, `/user/accept-terms`, `/user/confirm-brand-messages-usage`, `/cancel-subscription`. */
export const subscriptionResponse = z.object({ data: z.object({ subscription: subscriptionState }) })
/**
 * `POST /api/v2/page` adds whether the page is subscribed to the app's webhooks (live messages and receipts);
 * `ok: false` with the network's reason when that failed (the page is connected all the same).
 */
export const pageResponse = z.object({
  data: z.object({
    subscription: subscriptionState,
    webhooks: z.optional(z.object({ ok: z.boolean(), error: z.optional(z.string()) })),
  }),
})
export type PageResponse = z.infer<typeof pageResponse>
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>

/** `GET /api/v2/user/subscriptions/my-subscription` answers the fields bare; `/user/subscriptions` a list. */
export const mySubscriptionResponse = mySubscription
export const subscriptionsResponse = z.object({ data: z.array(mySubscription) })

export const extendTokenResponse = z.object({ accessToken: z.string() })
export const createMessageResponse = z.object({ id: z.string() })
export const checkoutResponse = z.object({ data: z.object({ url: z.string() }) })
export const uploadResponse = z.object({ url: z.string() })
export type UploadResponse = z.infer<typeof uploadResponse>

/** The most recipients one `PUT /api/v2/messages/{id}/recipients` call may carry. */
export const RECIPIENTS_PER_CALL_MAX = 5_000

export const recipientInput = z.strictObject({
  recipient_id: z.string().check(z.minLength(1), z.maxLength(64)),
  name: z.string().check(z.maxLength(300)),
  conversation_id: z.string().check(z.minLength(1), z.maxLength(128)),
  /** Absent means standard (inside the window). */
  way: z.optional(recipientWay),
})
export type RecipientInput = z.infer<typeof recipientInput>

/** `PUT /api/v2/messages/{id}/recipients`: appends idempotently, in order; answers `{ added, total }`. */
export const recipientsBody = z.strictObject({
  recipients: z.array(recipientInput).check(z.minLength(1), z.maxLength(RECIPIENTS_PER_CALL_MAX)),
})
export type RecipientsBody = z.infer<typeof recipientsBody>
export const recipientsPutResponse = z.object({
  added: z.number().check(z.int()),
  total: z.number().check(z.int()),
})

export const storedRecipient = z.extend(recipientInput, {
  status: z.nullable(z.enum(['OK', 'NG'])),
  sent_as_branded: z.boolean(),
})
export type StoredRecipient = z.infer<typeof storedRecipient>
/** `GET /api/v2/messages/{id}/recipients?after=&limit=`: insertion order; `next` is the cursor for `after`. */
export const recipientsPage = z.object({ data: z.array(storedRecipient), next: z.nullable(z.string()) })
export type RecipientsPage = z.infer<typeof recipientsPage>

export const bulkMessageState = z.enum(['open', 'finished', 'stopped', 'scheduled', 'cancelled'])
export const storedMessage = z.object({
  id: z.string(),
  page_id: z.string(),
  /** The page's name as the server last read it (null before it knew it). */
  page_name: z._default(z.nullable(z.string()), null),
  message: z.string(),
  image_url: z.nullable(z.string()),
  tag: z.nullable(z.string()),
  label: z.string(),
  total_messages: z.number().check(z.int()),
  branded_messages_amount: z.number().check(z.int()),
  ok_count: z.number().check(z.int()),
  ng_count: z.number().check(z.int()),
  /** Recipients left unsent when the job stopped. */
  skipped_count: z._default(z.number().check(z.int()), 0),
  /** Recipients the network reported delivered / read (webhook watermarks at or after their send). */
  delivered_count: z._default(z.number().check(z.int()), 0),
  read_count: z._default(z.number().check(z.int()), 0),
  state: bulkMessageState,
  stop_reason: z.nullable(z.string()),
  created_at: z.string(),
  /** Who sends the job now: this device (or another) or the server. */
  sender: z._default(z.enum(['device', 'server']), 'device'),
  /** What the server sender is doing while it holds the job (running, needs_signin, rate_limited, ...). */
  server_state: z._default(z.nullable(z.string()), null),
  /**
   * The job's lease epoch when the record was read: each hand-over raises it, so a record read before the
   * device's last hand-over is told apart from one read after it.
   */
  lease: z.optional(z.number().check(z.int(), z.nonnegative())),
  /** A scheduled send's start (ISO), in UTC; the owner's zone is `time_zone`. */
  scheduled_at: z._default(z.nullable(z.string()), null),
  time_zone: z._default(z.nullable(z.string()), null),
  content_kind: z._default(contentKind, 'text'),
  optin_title: z._default(z.nullable(z.string()), null),
  /** A utility job's template and parameters. */
  utility: z._default(
    z.nullable(
      z.object({ name: z.string(), language: z.string(), body: z.string(), params: z.array(z.string()) }),
    ),
    null,
  ),
  /** What the job is, fixed at its creation: every sender checks it. */
  kind: z._default(jobKind, 'standard'),
  /** The job's campaign, budget and spend when some recipients are reached as marketing messages. */
  marketing: z._default(z.nullable(jobMarketing), null),
  /** The page's custom labels the audience was chosen by; null without a label filter. */
  audience_labels: z._default(z.nullable(audienceLabels), null),
  /** Written where the text takes a recipient's first name and the network has none. */
  name_fallback: z._default(z.nullable(z.string()), null),
})
export type StoredMessage = z.infer<typeof storedMessage>
/** `GET /api/v2/messages?state=open`: the user's jobs that are neither deleted nor finished. */
export const messagesList = z.object({ data: z.array(storedMessage) })

/** `POST /api/v2/messages/{id}/state`. */
export const messageStateBody = z.strictObject({
  state: z.enum(['finished', 'stopped']),
  reason: z.nullish(z.string().check(z.maxLength(500))),
})
export type MessageStateBody = z.infer<typeof messageStateBody>

export { REFUSAL_CODES, type RefusalCode } from './refusal-codes.ts'

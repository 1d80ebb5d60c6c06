/**
 * Marketing messages (`/api/v2/pages/{pageId}/marketing…`): the network's paid, opt-in way to reach a customer
 * outside the 24-hour window. A page turns it on with an ad account the network bills; customers opt in to a
 * subscription (the page asks them inside the window); a bulk send reaches subscribers outside the window as
 * marketing messages of a campaign with a budget. The server validates every body with these schemas; the app
 * builds its payloads with the same types. Subscription tokens never leave the server.
 */
import { z } from './zod.ts'
import {
  budgetKind,
  networkMessageId,
  networkToken,
  OPTIN_PSIDS_PER_CALL_MAX,
  optinTitle,
} from './marketing-core.ts'

export * from './marketing-core.ts'

const pageToken = networkToken()
const psid = z.string().check(z.regex(/^\d{1,64}$/, 'Must be a page-scoped id.'))

export const marketingAdAccount = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  country: z.nullable(z.string()),
  /** The network reports the account active (account_status 1). */
  active: z.boolean(),
  /** Its business country is one the network serves with marketing messages. */
  available: z.boolean(),
})
export type MarketingAdAccount = z.infer<typeof marketingAdAccount>

/** `GET /api/v2/pages/{pageId}/marketing` and the answer of PUT. */
export const marketingState = z.object({
  enabled: z.boolean(),
  ad_account: z.nullable(z.object({ id: z.string(), name: z.string(), currency: z.string() })),
  country: z.nullable(z.string()),
  /** null until an ad account was checked. */
  available: z.nullable(z.boolean()),
  subscribers: z.object({ active: z.number().check(z.int()), stopped: z.number().check(z.int()) }),
  tokens_synced_at: z.nullable(z.string()),
  optin_title_default: z.string(),
})
export type MarketingState = z.infer<typeof marketingState>

/** `POST /api/v2/pages/{pageId}/marketing/ad-accounts`: the user token is used for one call and never stored. */
export const adAccountsBody = z.strictObject({ user_token: networkToken() })
export const adAccountsResponse = z.object({ data: z.array(marketingAdAccount) })

/** `PUT /api/v2/pages/{pageId}/marketing`: turns marketing messages on with this ad account. */
export const enableMarketingBody = z.strictObject({
  page_token: pageToken,
  ad_account_id: z.string().check(z.regex(/^act_\d{1,32}$/, 'Must be an ad account id.')),
})
export type EnableMarketingBody = z.infer<typeof enableMarketingBody>

/** `POST /api/v2/pages/{pageId}/marketing/sync`: reads the page's subscription tokens from the network. */
export const syncSubscribersBody = z.strictObject({ page_token: pageToken })
export const syncSubscribersResponse = z.object({
  active: z.number().check(z.int()),
  stopped: z.number().check(z.int()),
  added: z.number().check(z.int()),
  /** Active subscribers a complete read of the list no longer contained (now not reachable). */
  removed: z.number().check(z.int()),
})

/** `GET /api/v2/pages/{pageId}/marketing/subscribers`: the active subscribers' page-scoped ids. */
export const subscribersResponse = z.object({ psids: z.array(z.string()) })

export const optinRequestsBody = z.strictObject({
  psids: z.array(psid).check(z.minLength(1), z.maxLength(OPTIN_PSIDS_PER_CALL_MAX)),
  title: optinTitle,
})
export type OptinRequestsBody = z.infer<typeof optinRequestsBody>

/** An opt-in request message the network accepted: to whom, and the message id its Send API answered. */
export const optinRequestMessage = z.strictObject({ psid, message_id: networkMessageId })
export type OptinRequestMessage = z.infer<typeof optinRequestMessage>
/**
 * `POST …/marketing/optin-requests`: records requests the network accepted for the weekly limit; those given
 * as `messages` are also kept by message id, so every device's chat shows them as subscription requests.
 */
export const recordOptinRequestsBody = z
  .strictObject({
    psids: z.optional(z.array(psid).check(z.minLength(1), z.maxLength(OPTIN_PSIDS_PER_CALL_MAX))),
    messages: z.optional(
      z.array(optinRequestMessage).check(z.minLength(1), z.maxLength(OPTIN_PSIDS_PER_CALL_MAX)),
    ),
    title: optinTitle,
  })
  .check(
    z.refine((b) => b.psids !== undefined || b.messages !== undefined, {
      message: 'Name the people asked (psids) or the messages sent (messages).',
      path: ['messages'],
    }),
  )
export type RecordOptinRequestsBody = z.infer<typeof recordOptinRequestsBody>

/** The most opt-in request messages one read of a customer's answers (the newest). */
export const OPTIN_MESSAGES_LIST_MAX = 50
/** `GET …/marketing/optin-requests?psid=…`: the opt-in request messages sent to one customer. */
export const optinMessagesQuery = z.strictObject({ psid })
export const sentOptinRequest = z.object({
  message_id: z.string(),
  title: z.string(),
  /** ISO time. */
  sent_at: z.string(),
})
export type SentOptinRequest = z.infer<typeof sentOptinRequest>
/** Newest first, at most OPTIN_MESSAGES_LIST_MAX. */
export const sentOptinRequestsResponse = z.object({ data: z.array(sentOptinRequest) })
export const optinRefusal = z.object({
  psid: z.string(),
  reason: z.enum(['asked_this_week', 'subscribed']),
  /** When a request with this title may go to this person again (ISO time). */
  next_at: z.optional(z.string()),
})
export type OptinRefusal = z.infer<typeof optinRefusal>
/** `POST …/marketing/optin-requests/check`: who may be asked now with this title. */
export const optinCheckResponse = z.object({ allowed: z.array(z.string()), refused: z.array(optinRefusal) })
export type OptinCheckResponse = z.infer<typeof optinCheckResponse>

/** Budgets are whole minor units (cents) of the ad account's currency, as the network takes them. */
export const budget = z.strictObject({
  kind: budgetKind,
  minor: z.number().check(z.int('Must be a whole amount.'), z.positive(), z.lte(1_000_000_000)),
})
export type Budget = z.infer<typeof budget>

/** `POST /api/v2/messages/{id}/marketing`: creates the campaign and hands the job to the server sender. */
export const startMarketingBody = z.strictObject({
  page_token: pageToken,
  budget,
  lease: z.number().check(z.int(), z.nonnegative()),
})
export type StartMarketingBody = z.infer<typeof startMarketingBody>
export const startMarketingResponse = z.object({
  campaign_id: z.string(),
  currency: z.string(),
  estimate_minor: z.number().check(z.int()),
})

/** `GET /api/v2/pages/{pageId}/marketing/estimate?count=N`. */
export const estimateQuery = z.strictObject({
  count: z.coerce.number().check(z.int(), z.nonnegative(), z.lte(1_000_000)),
})
export const estimateResponse = z.object({
  currency: z.string(),
  per_message_minor: z.number().check(z.int()),
  estimate_minor: z.number().check(z.int()),
})
export type MarketingEstimate = z.infer<typeof estimateResponse>

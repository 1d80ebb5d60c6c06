/**
 * The marketing messages' values a bulk job and the app's first screens need (the opt-in title's limits, a
 * recipient's way, a job's content), apart from the API's schemas in marketing.ts, so they load without them.
 */
import { z } from './zod.ts'

/** The title an opt-in request carries when the owner keeps the default (the network's own default topic). */
export const DEFAULT_OPTIN_TITLE = 'Updates and promotions'
/** The network shows at most 65 characters of an opt-in request's title. */
export const OPTIN_TITLE_MAX = 65
/** One request with the same title per person per week (the network's limit). */
export const OPTIN_REQUEST_INTERVAL_MS = 7 * 24 * 60 * 60 * 1000
export const OPTIN_PSIDS_PER_CALL_MAX = 5_000

export const optinTitle = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'The title must not be empty.'),
    z.maxLength(OPTIN_TITLE_MAX, `The title may have at most ${OPTIN_TITLE_MAX} characters.`),
  )

/** The network's id of a sent message (the Send API's `message_id`): printable, without spaces. */
export const networkMessageId = z
  .string()
  .check(z.regex(/^[\x21-\x7e]{1,256}$/, "Must be the network's message id."))

/** How a recipient of a bulk job is reached. */
export const recipientWay = z.enum(['standard', 'marketing'])
export type RecipientWay = z.infer<typeof recipientWay>

/** What a bulk job sends: the owner's message, an opt-in request ("Ask to subscribe") or a utility message. */
export const contentKind = z.enum(['text', 'optin_request', 'utility'])
export type ContentKind = z.infer<typeof contentKind>

/**
 * What a bulk job is, fixed when its record is created and checked by every sender: standard messages inside
 * the window, a marketing job (its subscribers outside the window are reached by marketing messages, sent by
 * the server only, with the job's campaign), opt-in requests, or a utility message (one of the page's approved
 * templates, also outside the window).
 */
export const jobKind = z.enum(['standard', 'marketing', 'optin_request', 'utility'])
export type JobKind = z.infer<typeof jobKind>

export const budgetKind = z.enum(['daily', 'total'])
export type BudgetKind = z.infer<typeof budgetKind>

/** A job's marketing part, as the card shows it (also in `bulk_progress` events). */
export const jobMarketing = z.object({
  sent: z.number().check(z.int()),
  currency: z.string(),
  budget_kind: budgetKind,
  budget_minor: z.number().check(z.int()),
  estimate_minor: z.number().check(z.int()),
  /** What the network reports spent so far; null before its first reading. */
  spend_minor: z.nullable(z.number().check(z.int())),
})
export type JobMarketing = z.infer<typeof jobMarketing>

/**
 * A token the network issued (a user's or a page's), checked before it is sent there: printable ASCII without
 * spaces, as every token the network issues is. Anything else is refused with a 422, never asked about.
 * The app's build takes its calls for pure ones, as it does every call through `z` (src/core/contracts/zod.ts).
 */
export const networkToken = (max = 4096) =>
  z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(max),
      z.regex(/^[\x21-\x7e]+$/, 'A token holds only printable ASCII characters, without spaces.'),
    )

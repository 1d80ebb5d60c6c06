/**
 * A page's send history: every bulk send that ended (finished or stopped) in the last 90 days, dismissed from
 * the cards or not, with its report. `GET /api/v2/pages/{page}/send-history`, `GET /api/v2/messages/{id}/report`
 * and `GET /api/v2/messages/{id}/report.csv`.
 */
import { z } from './zod.ts'
import { jobKind } from './marketing-core.ts'

/** How long an ended send's report is kept; a server job purges older ones. */
export const HISTORY_DAYS = 90
/** A customer who writes to the page within this long after receiving the send counts as replied. */
export const REPLY_WINDOW_HOURS = 24

export const historyQuery = z.strictObject({
  /** Sends created before this one (its id): the next page of the history. */
  before: z.optional(z.string().check(z.regex(/^\d{1,15}$/, 'Invalid cursor'))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
})

export const reportFigures = z.object({
  total: z.number().check(z.int()),
  sent: z.number().check(z.int()),
  rejected: z.number().check(z.int()),
  skipped: z.number().check(z.int()),
  delivered: z.number().check(z.int()),
  read: z.number().check(z.int()),
  /** Customers who wrote to the page within 24 h after receiving the send. */
  replied: z.number().check(z.int()),
})
export type ReportFigures = z.infer<typeof reportFigures>

export const historyEntry = z.object({
  id: z.string(),
  page_id: z.string(),
  page_name: z.nullable(z.string()),
  message: z.string(),
  kind: jobKind,
  state: z.enum(['finished', 'stopped']),
  stop_reason: z.nullable(z.string()),
  created_at: z.string(),
  /** The card was dismissed (the report stays here). */
  dismissed: z.boolean(),
  figures: reportFigures,
})
export type HistoryEntry = z.infer<typeof historyEntry>

export const historyList = z.object({ data: z.array(historyEntry), next: z.nullable(z.string()) })
export type HistoryList = z.infer<typeof historyList>

export const reportQuery = z.strictObject({
  after: z.optional(z.string().check(z.regex(/^\d{1,18}$/, 'Invalid cursor'))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000)), 200),
})

export const reportRecipient = z.object({
  recipient_id: z.string(),
  name: z.string(),
  status: z.enum(['sent', 'rejected', 'not_sent']),
  /** The network's words for a rejected recipient. */
  reason: z.nullable(z.string()),
  sent_at: z.nullable(z.string()),
  delivered: z.boolean(),
  read: z.boolean(),
  replied: z.boolean(),
})
export type ReportRecipient = z.infer<typeof reportRecipient>

export const sendReport = z.object({
  job: historyEntry,
  /** The rejected recipients grouped by the network's reason, most frequent first. */
  rejected_by_reason: z.array(z.object({ reason: z.string(), count: z.number().check(z.int()) })),
  recipients: z.array(reportRecipient),
  /** The cursor (`after`) of the next page of recipients. */
  next: z.nullable(z.string()),
})
export type SendReport = z.infer<typeof sendReport>

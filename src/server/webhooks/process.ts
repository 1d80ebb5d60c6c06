/**
 * Messenger webhooks, after the 200: every body is first stored (`webhook_events`), then taken up here, a
 * batch at a time (`FOR UPDATE SKIP LOCKED`, so instances sharing the database never take the same one) and
 * in one transaction with what it changes, so a crash in between leaves the batch to be taken up again.
 *
 * A batch is applied as sets: its messages stored in one statement, their conversations' states in another,
 * the events its changes publish written in one more and announced together. Should any statement fail, the
 * batch is applied again event by event, each in a savepoint, so only what the store refuses is left aside.
 *
 * Duplicates change nothing: a message is its (page, mid), a receipt only ever moves its watermark forward.
 * Each change is published to the page's owners (owner_events + NOTIFY), in the order of the events; bulk
 * messages gain delivered and read counts from the watermarks.
 */
import { BROADCAST_METADATA } from '../../core/contracts/conversation-states.ts'
import type { MessageEvent } from '../../core/contracts/events.ts'
import type { TokenBox } from '../bulk/token-box.ts'
import type { Queryable, Store } from '../db/store.ts'
import { type PageMessageKind, recordMessages } from '../repo/conversation-states.ts'
import { lastRecipientNames, markBulkReceipts, type MovedReceipt } from '../repo/message-recipients.ts'
import { recordMessagingOptin } from '../repo/messaging-optins.ts'
import { applySubscriberEvent, networkTime, subscriberCounts } from '../repo/marketing.ts'
import { pageOwners, publishToPage, publishToUsers } from '../repo/owner-events.ts'
import { insertPageMessages, type PageMessageInput } from '../repo/page-messages.ts'
import { type Receipt, advanceWatermark, SEND_RECORD_SLACK_S } from '../repo/page-receipts.ts'
import { pageName } from '../repo/pages.ts'
import { inSavepoint, processPendingWebhooks } from '../repo/webhook-events.ts'
import { inputErrors } from '../http/input-guard.ts'
import type { CustomerMessageNotice } from './notice.ts'
import {
  templateStatusChange,
  type TemplateStatusChange,
  type WebhookMessaging,
  webhookBody,
  webhookEntry,
  webhookMessaging,
} from './payload.ts'

/** A body that failed this often is set aside (kept, with its last error, for a look by hand). */
const MAX_ATTEMPTS = 5
/** Bodies taken up in one transaction. */
const BATCH = 50
/** How long a page's name read for the push notifications is used before it is read again. */
const PAGE_NAME_MS = 60_000

export interface Logger {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

const iso = (ms: number) => new Date(ms).toISOString()

interface Outcome {
  notices: CustomerMessageNotice[]
  /** The events left aside, each with where it was in the body and why. */
  rejected: string[]
  /** Log lines, written once the body's transaction is committed. */
  warnings: { obj: object; msg: string }[]
}

/** How bodies are applied within their batch. */
export interface ApplyOptions {
  box: TokenBox
  /** Page names read so far (they title the push notifications). */
  pageNames: Map<string, string | null>
}

/** An event read from a body: a messaging event or a template status change, with the outcome of its body. */
interface TakenEvent {
  where: { entry: number; event: number; pageId: string }
  pageId: string
  messaging?: WebhookMessaging
  change?: TemplateStatusChange
  out: Outcome
}

/** A message event, as it is stored. */
interface MessageEventIn {
  input: PageMessageInput
  kind: PageMessageKind
  broadcast: boolean
}

/** The message an event carries, or undefined when it names no customer. */
function messageOf(pageId: string, m: WebhookMessaging): MessageEventIn | undefined {
  const message = m.message!
  const fromPage = message.is_echo === true
  const customerId = fromPage ? m.recipient.id : m.sender.id
  if (!customerId) return undefined
  // A bulk, marketing or opt-in send carries the broadcast metadata: it is no answer to anyone.
  const broadcast = fromPage && message.metadata === BROADCAST_METADATA
  return {
    input: {
      pageId,
      mid: message.mid,
      customerId,
      fromPage,
      text: message.text ?? null,
      attachments: (message.attachments ?? []).map((a) => ({ type: a.type, url: a.payload?.url ?? null })),
      createdTime: iso(m.timestamp ?? Date.now()),
    },
    kind: !fromPage ? 'customer' : broadcast ? 'broadcast' : 'answer',
    broadcast,
  }
}

/**
 * Applies events in their order, the messages among them as sets: stored in one statement (a (page, mid) seen
 * before, or earlier in the list, is a duplicate and changes nothing), their conversations' states in another,
 * the customers' names as bulk recipients in a third. Each new message publishes its conversation's state and
 * itself; a new customer message is a notice. Receipts, opt-ins and template status changes are applied one by
 * one. Throws on the first error.
 */
async function applyEvents(
  db: Queryable,
  events: readonly TakenEvent[],
  options: ApplyOptions,
): Promise<void> {
  const { box, pageNames } = options
  const messages = new Map<TakenEvent, MessageEventIn>()
  for (const e of events) {
    const message = e.messaging?.message ? messageOf(e.pageId, e.messaging) : undefined
    if (message) messages.set(e, message)
  }
  const listed = [...messages.values()]
  const fresh = await insertPageMessages(
    db,
    listed.map((m) => m.input),
  )
  const stored = listed.filter((_, i) => fresh[i])
  const states = await recordMessages(
    db,
    stored.map(({ input, kind }) => ({
      pageId: input.pageId,
      customerId: input.customerId,
      kind,
      at: input.createdTime,
      text: input.text,
      mid: input.mid,
    })),
  )
  const owners = new Map<string, string[]>()
  for (const { input } of stored)
    if (!owners.has(input.pageId)) owners.set(input.pageId, await pageOwners(db, input.pageId))
  const heard = stored.filter(({ input }) => !input.fromPage && owners.get(input.pageId)!.length > 0)
  const names = await lastRecipientNames(
    db,
    heard.map(({ input }) => input),
  )
  for (const { input } of heard)
    if (!pageNames.has(input.pageId)) pageNames.set(input.pageId, await pageName(db, input.pageId))
  const published = new Map(stored.map((m, i) => [m, states[i]!]))
  const named = new Map(heard.map((m, i) => [m, names[i]]))
  const receipts = await applyReceipts(db, events)

  for (const e of events) {
    const { pageId, messaging: m, change } = e
    if (m?.message) {
      const message = messages.get(e)
      const state = message && published.get(message)
      if (!message || !state) continue
      const { input, broadcast } = message
      await publishToPage(db, pageId, 'conversation_state', state)
      const userIds = owners.get(pageId)!
      if (userIds.length === 0) continue
      const name = named.get(message)
      const data: MessageEvent = {
        pageId,
        customerId: input.customerId,
        mid: input.mid,
        text: input.text,
        attachments: [...input.attachments],
        createdTime: input.createdTime,
        fromPage: input.fromPage,
        ...(broadcast ? { broadcast } : {}),
        ...(name ? { customerName: name } : {}),
      }
      await publishToUsers(db, userIds, 'message', data)
      if (!input.fromPage)
        e.out.notices.push({
          userIds,
          pageId,
          pageName: pageNames.get(pageId) ?? null,
          customerId: input.customerId,
          customerName: name,
          mid: input.mid,
          text: input.text,
          createdTime: input.createdTime,
        })
    } else if (m?.delivery || m?.read) {
      const moved = receipts.moved.get(e)
      if (moved) await publishReceipt(db, pageId, moved)
    } else if (m?.optin) await onOptin(db, pageId, m, box)
    else if (change) {
      const v = change.value
      await publishToPage(db, pageId, 'template_status', {
        pageId,
        templateId: v.message_template_id,
        name: v.message_template_name,
        language: v.message_template_language,
        status: v.event,
        reason: v.reason && v.reason !== 'NONE' ? v.reason : null,
      })
    }
  }
}

/** A receipt that moved its customer's watermark, as the owners hear of it. */
interface MovedWatermark {
  customerId: string
  kind: Receipt
  at: string
  mids?: string[] | undefined
}

/**
 * The batch's receipts, applied before anything else of it locks a message: every watermark moved in the order
 * of (page, customer), then the bulk recipients they cover marked, their messages locked in id order. That is
 * the order every writer takes (the touch too: receipts, messages, recipients), so two instances' batches and
 * the senders' records wait for each other instead of deadlocking. Answers the events that moved a watermark
 * (published in the events' order) and announces the messages' new counts.
 */
async function applyReceipts(
  db: Queryable,
  events: readonly TakenEvent[],
): Promise<{ moved: Map<TakenEvent, MovedWatermark> }> {
  const taken: { e: TakenEvent; w: MovedWatermark }[] = []
  for (const e of events) {
    const m = e.messaging
    const customerId = m?.sender.id
    if (!m || !customerId || !(m.delivery || m.read) || m.message) continue
    const kind: Receipt = m.delivery ? 'delivered' : 'read'
    const at = iso(m.delivery ? m.delivery.watermark : m.read!.watermark)
    taken.push({ e, w: { customerId, kind, at, mids: m.delivery?.mids } })
  }
  const order = (a: (typeof taken)[number], b: (typeof taken)[number]) =>
    a.e.pageId < b.e.pageId ? -1 : a.e.pageId > b.e.pageId ? 1 : a.w.customerId < b.w.customerId ? -1 : 1
  const moved = new Map<TakenEvent, MovedWatermark>()
  const customers = new Map<string, MovedReceipt>()
  for (const { e, w } of [...taken].sort(order)) {
    if (!(await advanceWatermark(db, e.pageId, w.customerId, w.kind, w.at))) continue
    moved.set(e, w)
    const key = `${e.pageId}\u0000${w.customerId}`
    const c = customers.get(key) ?? {
      pageId: e.pageId,
      customerId: w.customerId,
      delivered: null,
      read: null,
    }
    if (w.kind === 'delivered') c.delivered = later(c.delivered, w.at)
    else c.read = later(c.read, w.at)
    customers.set(key, c)
  }
  for (const r of await markBulkReceipts(db, [...customers.values()], SEND_RECORD_SLACK_S)) {
    await publishToUsers(db, [String(r.user_id)], 'bulk_receipts', {
      pageId: String(r.page_id),
      messageId: String(r.id),
      delivered: r.delivered_count,
      read: r.read_count,
    })
  }
  return { moved }
}

const later = (a: string | null, b: string) => (a === null || Date.parse(b) > Date.parse(a) ? b : a)

/** A watermark that moved, to the page's owners. */
async function publishReceipt(db: Queryable, pageId: string, w: MovedWatermark): Promise<void> {
  const owners = await pageOwners(db, pageId)
  if (w.kind === 'delivered')
    await publishToUsers(db, owners, 'delivery', {
      pageId,
      customerId: w.customerId,
      watermark: w.at,
      ...(w.mids ? { mids: w.mids } : {}),
    })
  else await publishToUsers(db, owners, 'read', { pageId, customerId: w.customerId, watermark: w.at })
}

async function onOptin(db: Queryable, pageId: string, m: WebhookMessaging, box: TokenBox): Promise<void> {
  const optin = m.optin as Record<string, unknown>
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null)
  const at = m.timestamp ?? Date.now()
  await recordMessagingOptin(db, {
    pageId,
    customerId: m.sender.id ?? null,
    userRef: m.sender.user_ref ?? str(optin.user_ref),
    type: str(optin.type),
    payload: str(optin.payload) ?? str(optin.ref),
    token: str(optin.notification_messages_token),
    optin,
    eventTime: iso(at),
  })
  // Applied even for a stored duplicate: the subscriber list ignores what it has already seen.
  await onMarketingOptin(db, pageId, m.sender.id, optin, at, box)
}

/**
 * A marketing messages opt-in (`type: notification_messages`) moves the person on the page's subscriber
 * list: a first opt-in or RESUME_NOTIFICATIONS makes them active with the token, STOP_NOTIFICATIONS stops
 * them at once. Applied at the event's own time, so an older event delivered late changes nothing. The
 * page's owners hear the new counts.
 */
async function onMarketingOptin(
  db: Queryable,
  pageId: string,
  psid: string | undefined,
  optin: Record<string, unknown>,
  at: number,
  box: TokenBox,
): Promise<void> {
  if (optin.type !== 'notification_messages' || !psid) return
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined)
  const token =
    text(optin.notification_messages_token) ??
    (typeof optin.notification_messages_token === 'number'
      ? String(optin.notification_messages_token)
      : undefined)
  // The reference prints the values with a space ("STOP NOTIFICATIONS"); the samples with an underscore.
  const status =
    typeof optin.notification_messages_status === 'string'
      ? optin.notification_messages_status.trim().toUpperCase().replace(/\s+/g, '_')
      : undefined
  const { applied } = await applySubscriberEvent(db, box, {
    pageId,
    psid,
    at,
    kind: status === 'STOP_NOTIFICATIONS' ? 'stop' : status === 'RESUME_NOTIFICATIONS' ? 'resume' : 'optin',
    token,
    title: text(optin.title),
    expiresAt: networkTime(optin.token_expiry_timestamp),
    timezone: text(optin.notification_messages_timezone),
    source: 'webhook',
  })
  if (applied)
    await publishToPage(db, pageId, 'marketing_subscribers', {
      pageId,
      ...(await subscriberCounts(db, pageId)),
    })
}

/**
 * Whether an event's own data caused the error (PostgreSQL refused a value, a time is out of range): then only
 * that event is left aside. Anything else (the database unreachable, a table missing) fails the whole body,
 * which is taken up again later.
 */
function isEventDataError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  // SQLSTATE classes 22 (data exception), 23 (integrity constraint) and 54 (program limit exceeded).
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return /^(22|23|54)/.test(code)
  return err instanceof RangeError || err instanceof TypeError
}

/** Why an event cannot be taken (NUL, an unpaired surrogate, deep nesting), or undefined when it can be read. */
function unfit(value: unknown): string | undefined {
  const [field, messages] = Object.entries(inputErrors(value, 'event'))[0] ?? []
  return field ? `${field}: ${messages!.join(' ')}` : undefined
}

const newOutcome = (): Outcome => ({ notices: [], rejected: [], warnings: [] })

function leaveAside(out: Outcome, where: { entry: number; event?: number; pageId?: string }, reason: string) {
  out.warnings.push({ obj: { ...where, reason }, msg: 'messenger webhook: an event was left aside' })
  const at = where.event === undefined ? `entry ${where.entry}` : `entry ${where.entry} event ${where.event}`
  out.rejected.push(`${at} (${reason})`)
}

/**
 * The events of a stored body, in its order; those that cannot be read (NUL, an unpaired surrogate, deep
 * nesting, a wrong shape) are left aside in `out`, with a log line.
 */
function readBody(body: string, out: Outcome): TakenEvent[] {
  const parsed = webhookBody.safeParse(JSON.parse(body))
  if (!parsed.success || parsed.data.object !== 'page') {
    out.warnings.push({
      obj: { object: parsed.success ? parsed.data.object : undefined },
      msg: 'messenger webhook: not a page event, left aside',
    })
    return []
  }
  const events: TakenEvent[] = []
  for (const [e, rawEntry] of parsed.data.entry.entries()) {
    const entry = webhookEntry.safeParse(rawEntry)
    if (!entry.success) {
      leaveAside(out, { entry: e }, 'not a page entry')
      continue
    }
    const pageId = entry.data.id
    for (const [i, item] of (entry.data.messaging ?? []).entries()) {
      const where = { entry: e, event: i, pageId }
      const problem = unfit(item)
      const m = problem ? undefined : webhookMessaging.safeParse(item)
      if (m?.success) events.push({ where, pageId, messaging: m.data, out })
      else leaveAside(out, where, problem ?? 'not a messaging event')
    }
    for (const [i, item] of (entry.data.changes ?? []).entries()) {
      const field = (item as { field?: unknown } | null)?.field
      // Other page fields (marketing message echoes among them) are not read here.
      if (field !== 'message_template_status_update') continue
      const where = { entry: e, event: i, pageId }
      const problem = unfit(item)
      const change = problem ? undefined : templateStatusChange.safeParse(item)
      if (change?.success) events.push({ where, pageId, change: change.data, out })
      else leaveAside(out, where, problem ?? 'not a template status change')
    }
  }
  return events
}

/**
 * Applies stored bodies together, their events as sets (`applyEvents`): answers each body's outcome (the
 * customer messages that were new, the events left aside and the lines to log). Throws when the store refuses
 * any event; `applyWebhook` then takes each body alone.
 */
export async function applyWebhooks(
  db: Queryable,
  bodies: readonly string[],
  options: ApplyOptions,
): Promise<Outcome[]> {
  const outs = bodies.map(newOutcome)
  await applyEvents(
    db,
    bodies.flatMap((body, i) => readBody(body, outs[i]!)),
    options,
  )
  return outs
}

/**
 * Applies one stored body, event by event, each in a savepoint: an event that cannot be read or stored (NUL,
 * an unpaired surrogate, a wrong shape, a value out of range) is left aside with a log line, the others of the
 * body are kept. Answers as `applyWebhooks`.
 */
export async function applyWebhook(db: Queryable, body: string, options: ApplyOptions): Promise<Outcome> {
  const out = newOutcome()
  for (const event of readBody(body, out)) {
    const alone: TakenEvent = { ...event, out: newOutcome() }
    try {
      await inSavepoint(db, 'event', () => applyEvents(db, [alone], options))
      out.notices.push(...alone.out.notices)
    } catch (err) {
      if (!isEventDataError(err)) throw err
      leaveAside(out, event.where, err instanceof Error ? err.message : String(err))
    }
  }
  return out
}

/**
 * Takes up stored bodies until none is left. One run at a time per instance; a call during a run makes it
 * go round once more. Customer messages are announced to `onCustomerMessage` after their commit.
 */
export class WebhookProcessor {
  private running: Promise<void> | undefined
  private again = false
  private stopped = false
  private pageNames = new Map<string, string | null>()
  private pageNamesSince = 0

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    /** Seals the marketing subscription tokens opt-ins carry. */
    private readonly box: TokenBox,
    private readonly onCustomerMessage?: (notice: CustomerMessageNotice) => Promise<void> | void,
  ) {}

  /** Starts (or re-runs) the work; the promise settles when nothing is left. */
  drain(): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      try {
        // A body that fails waits for the next run (the next webhook, or the half-minute sweep).
        const failed = new Set<number>()
        do {
          this.again = false
          while (!this.stopped && (await this.one(failed))) {
            /* next */
          }
        } while (this.again && !this.stopped)
      } finally {
        this.running = undefined
      }
    })()
    return this.running
  }

  async stop(): Promise<void> {
    this.stopped = true
    await this.running?.catch(() => undefined)
  }

  /**
   * Processes up to BATCH pending bodies in one transaction (a body that fails is rolled back alone and
   * counted, the others are kept); answers false when there was none. One commit for many bodies, applied as
   * sets, their events written and announced together and no savepoint unless one fails, is what lets an
   * instance keep up with a busy page: the round trips and the commit, not the work, are the cost of a small
   * body.
   */
  private async one(skip: Set<number>): Promise<boolean> {
    // A renamed page titles its pushes with the new name within a minute.
    if (Date.now() - this.pageNamesSince > PAGE_NAME_MS) {
      this.pageNames = new Map()
      this.pageNamesSince = Date.now()
    }
    const pageNames = this.pageNames
    const { found, applied, failures } = await processPendingWebhooks(
      this.store,
      { maxAttempts: MAX_ATTEMPTS, skip, batch: BATCH },
      {
        all: (tx, bodies) => applyWebhooks(tx, bodies, { box: this.box, pageNames }),
        one: (tx, body) => applyWebhook(tx, body, { box: this.box, pageNames }),
      },
      // A body with events left aside is done all the same; the row says which, for a look by hand.
      ({ rejected }) =>
        rejected.length
          ? `${rejected.length} ${rejected.length === 1 ? 'event' : 'events'} left aside: ${rejected.join('; ')}`
          : null,
    )
    for (const { obj, msg } of applied.flatMap((outcome) => outcome.warnings)) this.log.warn(obj, msg)
    const notices = applied.flatMap((outcome) => outcome.notices)
    for (const failed of failures) {
      skip.add(failed.id)
      this.log.error(
        { webhookEventId: failed.id, error: failed.error },
        'messenger webhook: processing failed',
      )
    }
    for (const notice of notices) {
      try {
        await this.onCustomerMessage?.(notice)
      } catch (err) {
        this.log.error({ err, mid: notice.mid }, 'messenger webhook: the new-message hook failed')
      }
    }
    return found
  }
}

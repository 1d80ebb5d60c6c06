/**
 * Sends Web Push notifications. `notifyCustomerMessage` is the hook the webhook processing calls for each
 * new customer message: every user of the page who has no visible tab of the app gets a push on each of
 * their devices. `notifyUser` sends any other notice to one user's devices.
 *
 * The request is built by `web-push` (payload encryption, aes128gcm, and the VAPID JWT). Each endpoint is
 * checked against the subscription rules again before the push (`endpoints.ts`): one they refuse (stored
 * under older rules, or the sandbox's now that it is off) gets nothing and is deleted. A browser's push
 * service is reached through `transport.ts` (its host's addresses vetted, the connection pinned to them);
 * the sandbox's push service, on the app's own origin, with `fetch`, so tests can take it in-process.
 * A 404 or 410 answer means the push service forgot the subscription: it is deleted. Other failures are
 * logged with the push service's origin only: the rest of an endpoint is a capability and is never written
 * to a log.
 */
import { createHash } from 'node:crypto'
import webpush from 'web-push'
import {
  type MessagePushPayload,
  type PushLocale,
  type PushPayload,
  isPushLocale,
  pushLocaleDir,
} from '../../core/contracts/push.ts'
import type { Queryable } from '../db/store.ts'
import type { FetchLike } from '../graph/graph-api.ts'
import { revokedUsers } from '../repo/page-bindings.ts'
import {
  type PushSubscriptionRow,
  forgetEndpoint,
  hideTextOf,
  subscriptionsOf,
  subscriptionsOfUsers,
} from '../repo/push.ts'
import { type EndpointRules, endpointRefusal, isSandboxEndpoint } from './endpoints.ts'
import { PUSH_TEXTS } from './texts.ts'
import { type Resolve, postToPushService } from './transport.ts'
import type { VapidKeys } from './vapid.ts'

/** What the webhook processing hands over for each new customer message (`ApiContext.onCustomerMessage`). */
export interface CustomerMessageEvent {
  userIds: string[]
  pageId: string
  pageName: string | null
  customerId: string
  customerName?: string | null | undefined
  mid: string
  text: string | null
  createdTime: string
}

export interface PushLogger {
  warn(obj: object, msg: string): void
  info?(obj: object, msg: string): void
}

export interface PushDeps {
  store: Queryable
  vapid: VapidKeys
  /** True when one of the user's tabs of the app is visible now (then the app shows the message itself). */
  anyVisibleTab: (userId: string) => Promise<boolean>
  /** Which endpoints may be pushed to: the server's PUBLIC_URL and whether the sandbox is on. */
  endpoints: EndpointRules
  /** The fetch that reaches the sandbox's push service (tests take it in-process). */
  fetch?: FetchLike | undefined
  /** Resolves a push service's host (default: the system's resolver). */
  resolve?: Resolve | undefined
  log?: PushLogger | undefined
}

export interface PushOptions {
  /** Seconds the push service keeps an undelivered push. */
  ttl?: number
  urgency?: 'very-low' | 'low' | 'normal' | 'high'
  /** A newer push with the same topic replaces an undelivered older one (at most 32 base64url characters). */
  topic?: string
}

export interface PushOutcome {
  sent: number
  removed: number
  failed: number
}

/** A chat message is worth a day: past that the owner sees it in the app anyway. */
export const MESSAGE_TTL_SECONDS = 24 * 60 * 60
/** How long a push service has to take a push. */
const SEND_TIMEOUT_MS = 10_000
/** The body keeps a push well under the 4 kB the push services take. */
const BODY_MAX = 180

/** The push service's origin: what a log may say about an endpoint. */
export function endpointOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin
  } catch {
    return 'invalid endpoint'
  }
}

/** The Topic header of one conversation: a digest, so neither id shows and it fits 32 characters. */
export function conversationTopic(pageId: string, customerId: string): string {
  return createHash('sha256').update(`${pageId}:${customerId}`).digest('base64url').slice(0, 32)
}

function clip(text: string): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()]
  return chars.length > BODY_MAX ? `${chars.slice(0, BODY_MAX - 1).join('')}…` : chars.join('')
}

/** The notification of one message, worded in the device's language. */
export function messagePayload(
  event: CustomerMessageEvent,
  locale: string,
  hideText: boolean,
): MessagePushPayload {
  const lang: PushLocale = isPushLocale(locale) ? locale : 'en'
  const texts = PUSH_TEXTS[lang]
  const body = hideText ? texts.newMessage : event.text?.trim() ? clip(event.text) : texts.attachment
  return {
    type: 'message',
    pageId: event.pageId,
    customerId: event.customerId,
    title: event.customerName?.trim() || event.pageName || texts.newMessage,
    body,
    pageName: event.pageName ?? '',
    // The app's router reads search values as JSON: an all-digit id is sent quoted so it stays a string
    // (as a number it would lose digits past 2^53).
    url: `/${encodeURIComponent(event.pageId)}?chat=${encodeURIComponent(JSON.stringify(event.customerId))}`,
    tag: `conv:${event.pageId}:${event.customerId}`,
    lang,
    dir: pushLocaleDir(lang),
  }
}

/** Sends one push; true when delivered to the push service, 'gone' when the subscription is no more. */
async function sendOne(
  deps: PushDeps,
  sub: PushSubscriptionRow,
  payload: PushPayload,
  options: PushOptions,
): Promise<'sent' | 'gone' | 'failed'> {
  const origin = endpointOrigin(sub.endpoint)
  const refusal = endpointRefusal(sub.endpoint, deps.endpoints)
  if (refusal) {
    await forgetEndpoint(deps.store, sub.endpoint)
    deps.log?.warn({ push: origin }, 'push subscription refused: not a browser push service; removed')
    return 'gone'
  }
  try {
    const details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: deps.vapid,
        TTL: options.ttl ?? MESSAGE_TTL_SECONDS,
        urgency: options.urgency ?? 'normal',
        ...(options.topic ? { topic: options.topic } : {}),
        contentEncoding: 'aes128gcm',
      },
    )
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value)
    const status = isSandboxEndpoint(new URL(sub.endpoint), deps.endpoints)
      ? (
          await (deps.fetch ?? fetch)(sub.endpoint, {
            method: 'POST',
            headers,
            body: details.body ?? undefined,
            // The push goes to this endpoint only, never where an answer points.
            redirect: 'manual',
            signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          } as RequestInit)
        ).status
      : await postToPushService(
          sub.endpoint,
          { headers, body: details.body, timeoutMs: SEND_TIMEOUT_MS },
          { resolve: deps.resolve },
        )
    if (status === 404 || status === 410) {
      await forgetEndpoint(deps.store, sub.endpoint)
      deps.log?.info?.({ push: origin, status }, 'push subscription expired: removed')
      return 'gone'
    }
    if (status < 200 || status > 299) {
      deps.log?.warn({ push: origin, status }, 'push refused by the push service')
      return 'failed'
    }
    return 'sent'
  } catch (err) {
    // The error may quote the endpoint (web-push's does): only its class and message without URLs are kept.
    const message = err instanceof Error ? err.message.replace(/\b\w+:\/\/\S+/g, '<url>') : 'unknown error'
    deps.log?.warn({ push: origin, error: message }, 'push could not be sent')
    return 'failed'
  }
}

function tally(results: Array<'sent' | 'gone' | 'failed'>): PushOutcome {
  return {
    sent: results.filter((r) => r === 'sent').length,
    removed: results.filter((r) => r === 'gone').length,
    failed: results.filter((r) => r === 'failed').length,
  }
}

/** Sends a notice to every device of one user (a payload per device's language when `payload` is a function). */
export async function notifyUser(
  deps: PushDeps,
  userId: string,
  payload: PushPayload | ((sub: PushSubscriptionRow) => PushPayload),
  options: PushOptions = {},
): Promise<PushOutcome> {
  return pushTo(deps, await subscriptionsOf(deps.store, userId), payload, options)
}

/** Sends to the given devices of one user. */
async function pushTo(
  deps: PushDeps,
  subs: readonly PushSubscriptionRow[],
  payload: PushPayload | ((sub: PushSubscriptionRow) => PushPayload),
  options: PushOptions,
): Promise<PushOutcome> {
  const results = await Promise.all(
    subs.map((sub) => sendOne(deps, sub, typeof payload === 'function' ? payload(sub) : payload, options)),
  )
  return tally(results)
}

/**
 * The push for a new customer message: to each device of each of the page's users who has no visible tab of
 * the app (one with a visible tab sees the message arrive there). Never throws: a push is a courtesy and must
 * not fail the processing of the webhook.
 */
export async function notifyCustomerMessage(
  deps: PushDeps,
  event: CustomerMessageEvent,
): Promise<PushOutcome> {
  return notifyCustomerMessages(deps, [event])
}

/**
 * `notifyCustomerMessage` for several messages, the owners' devices read once for all: a busy page costs a
 * statement per batch of messages, not per message, when no owner has a device subscribed.
 */
export async function notifyCustomerMessages(
  deps: PushDeps,
  events: readonly CustomerMessageEvent[],
): Promise<PushOutcome> {
  const owners = events.map((e) => [...new Set(e.userIds)])
  // Whoever lost the page since the message was stored (a revoked binding) hears nothing of it.
  // Only the owners with a device subscribed are asked more of (a tab open, the text hidden), each of them alone.
  const revoked = new Map<string, Set<string>>()
  let subscribed: Map<string, PushSubscriptionRow[]>
  try {
    subscribed = await subscriptionsOfUsers(deps.store, [...new Set(owners.flat())])
    const asked = new Map<string, Set<string>>()
    events.forEach((e, i) => {
      for (const userId of owners[i]!)
        if (subscribed.has(userId)) asked.set(e.pageId, (asked.get(e.pageId) ?? new Set()).add(userId))
    })
    for (const [pageId, userIds] of asked)
      revoked.set(pageId, await revokedUsers(deps.store, pageId, [...userIds]))
  } catch (err) {
    deps.log?.warn({ error: err instanceof Error ? err.message : String(err) }, 'push notification failed')
    return { sent: 0, removed: 0, failed: owners.reduce((n, userIds) => n + userIds.length, 0) }
  }
  const outcomes = await Promise.all(
    events.flatMap((event, i) =>
      owners[i]!.filter((userId) => !revoked.get(event.pageId)?.has(userId) && subscribed.has(userId)).map(
        async (userId): Promise<PushOutcome> => {
          try {
            if (await deps.anyVisibleTab(userId)) return { sent: 0, removed: 0, failed: 0 }
            const hideText = await hideTextOf(deps.store, userId)
            const subs = subscribed.get(userId)!
            return await pushTo(deps, subs, (sub) => messagePayload(event, sub.locale, hideText), {
              ttl: MESSAGE_TTL_SECONDS,
              urgency: 'high',
              topic: conversationTopic(event.pageId, event.customerId),
            })
          } catch (err) {
            deps.log?.warn(
              { error: err instanceof Error ? err.message : String(err) },
              'push notification failed',
            )
            return { sent: 0, removed: 0, failed: 1 }
          }
        },
      ),
    ),
  )
  return outcomes.reduce(
    (a, b) => ({ sent: a.sent + b.sent, removed: a.removed + b.removed, failed: a.failed + b.failed }),
    { sent: 0, removed: 0, failed: 0 },
  )
}

/**
 * The hook the webhook processing calls for each new customer message: the messages handed over in one turn
 * (a processed batch) are pushed together (`notifyCustomerMessages`), after it. Never throws.
 */
export function customerMessagePusher(deps: PushDeps): (event: CustomerMessageEvent) => void {
  let waiting: CustomerMessageEvent[] = []
  return (event) => {
    waiting.push(event)
    if (waiting.length > 1) return
    setImmediate(() => {
      const events = waiting
      waiting = []
      void notifyCustomerMessages(deps, events)
    })
  }
}

/**
 * The delivery rules both senders keep (the bulk worker and the chat reply outbox): one classification of a
 * failed Graph call, one check that an uncertain send already arrived, and one order of a message's parts.
 */
import { fillBody, type UtilityContent } from './template.ts'
import { GraphError } from './errors.ts'
import type { GraphErrorKind } from './types.ts'

const KINDS: ReadonlySet<string> = new Set<GraphErrorKind>([
  'network',
  'auth',
  'throttle',
  'transient',
  'page_blocked',
  'config',
  'outside_window',
  'recipient_gone',
])

/**
 * The kind of any failure of a Graph call. A GraphError carries the kind its code and subcode gave it
 * (errors.ts); a fetch that got no answer (TypeError) is `network`; anything else had no answer from the
 * network to classify and is `transient` (retried, a bounded number of times where the sender counts).
 */
export function failureKind(error: unknown): GraphErrorKind {
  if (error instanceof GraphError) return error.kind
  const kind = (error as { kind?: unknown } | null)?.kind
  if (typeof kind === 'string' && KINDS.has(kind)) return kind as GraphErrorKind
  return error instanceof TypeError ? 'network' : 'transient'
}

/** Failures after which a send may be tried again later; the others refuse it for good. */
export const RETRY_LATER: ReadonlySet<GraphErrorKind> = new Set(['network', 'auth', 'throttle', 'transient'])

/** Browser and network clocks differ: a page message this much before the attempt still counts as the send's. */
export const ARRIVAL_CLOCK_TOLERANCE_MS = 2 * 60_000

/** A message of the conversation as the arrival check reads it. */
export interface SeenMessage {
  /** The network's message id, when the reader has it. */
  id?: string
  fromId: string | undefined
  createdAt: number
  text: string
  hasImage: boolean
}

export interface Arrival {
  textSent: boolean
  imageSent: boolean
  /** The network's id of the page message found carrying the text (when the messages read had ids). */
  textMessageId?: string
}

/**
 * What of an uncertain send (a crash after the write-ahead, or a request whose answer never came) the
 * conversation's latest messages show arrived: a page-sent message with the same text (or, for an image
 * alone, an image) at or after the attempt time, less the clock tolerance.
 */
export function arrival(
  latest: readonly SeenMessage[],
  pageId: string,
  text: string,
  attemptAt: number,
): Arrival {
  const since = attemptAt - ARRIVAL_CLOCK_TOLERANCE_MS
  const ours = latest.filter((m) => m.fromId === pageId && m.createdAt >= since)
  const withText = ours.find((m) => m.text === text && (text !== '' || m.hasImage))
  return {
    textSent: withText !== undefined,
    imageSent: ours.some((m) => m.hasImage),
    ...(withText?.id ? { textMessageId: withText.id } : {}),
  }
}

export interface PartSteps {
  /** Sends the image. */
  image(): Promise<void>
  /** Records that the image went, so a retry sends only the text (never the image twice). */
  imageWent(): Promise<void>
  text(): Promise<void>
}

/** The one order of a message's parts: the image first (unless it already went), then the text. */
export async function sendParts(
  parts: { image: boolean; imageSent: boolean; text: boolean },
  steps: PartSteps,
): Promise<void> {
  if (parts.image && !parts.imageSent) {
    await steps.image()
    await steps.imageWent()
  }
  if (parts.text) await steps.text()
}

/** An opt-in request ("Ask to subscribe"): the network's `notification_messages` template. */
export interface OptInRequest {
  /** The topic the person subscribes to (at most 65 characters); one request per title per person per week. */
  title: string
  /** Comes back with the person's opt-in (`messaging_optins`), naming what they answered. */
  payload: string
  imageUrl?: string
}

/** The Send API attachment of an opt-in request (`message.attachment`). */
export function optInTemplate(req: OptInRequest): Record<string, unknown> {
  return {
    type: 'template',
    payload: {
      template_type: 'notification_messages',
      title: req.title,
      payload: req.payload,
      ...(req.imageUrl ? { image_url: req.imageUrl } : {}),
    },
  }
}

/** The payload of a bulk job's opt-in requests: the job, so an opt-in tells which send it answered. */
export function optInPayload(jobId: string): string {
  return `pagecast_optin:${jobId}`
}

/** The Send API `message.template` of a utility message: the template, its language, its body parameters. */
export function utilityTemplate(u: {
  name: string
  language: string
  params: readonly string[]
}): Record<string, unknown> {
  return {
    name: u.name,
    language: { code: u.language },
    ...(u.params.length
      ? { components: [{ type: 'body', parameters: u.params.map((text) => ({ type: 'text', text })) }] }
      : {}),
  }
}

/**
 * What a bulk job sends: the owner's text (with any image), an opt-in request with a title, or a utility
 * message from one of the page's approved templates.
 */
export type JobContent =
  { kind: 'text' } | { kind: 'optin_request'; title: string } | { kind: 'utility'; utility: UtilityContent }

export function jobContent(
  kind: string | null | undefined,
  title: string | null | undefined,
  utility?: UtilityContent | null,
): JobContent {
  if (kind === 'utility' && utility) return { kind: 'utility', utility }
  return kind === 'optin_request' ? { kind: 'optin_request', title: title ?? '' } : { kind: 'text' }
}

/** Where the owner's bulk text takes each recipient's first name (inserted by a button, never typed). */
export const FIRST_NAME_TOKEN = '{first name}'

/** A person's first name as the network gives their name: its first word, whole in any script. */
export function firstName(name: string | null | undefined): string {
  return (name ?? '').trim().split(/\s+/u)[0] ?? ''
}

/**
 * The text one recipient gets: each FIRST_NAME_TOKEN replaced by their first name, or by the owner's
 * fallback word when the network has no name for them. Both senders send it and look for it in the
 * conversation when a send's arrival is uncertain.
 */
export function personalText(
  text: string,
  recipientName: string | null | undefined,
  fallback: string,
): string {
  if (!text.includes(FIRST_NAME_TOKEN)) return text
  const name = firstName(recipientName) || fallback.trim()
  return text.split(FIRST_NAME_TOKEN).join(name)
}

/**
 * The job's content as one recipient gets it: a utility message's parameters with each FIRST_NAME_TOKEN
 * filled as personalText fills the owner's text (the same first name, the same fallback word).
 */
export function recipientContent(
  content: JobContent,
  recipientName: string | null | undefined,
  fallback: string,
): JobContent {
  if (content.kind !== 'utility') return content
  const params = content.utility.params.map((p) => personalText(p, recipientName, fallback))
  return { kind: 'utility', utility: { ...content.utility, params } }
}

/**
 * The text a delivered send shows in the conversation, for the arrival check of an uncertain send: the
 * recipient's text, an opt-in request's title, or a utility message's body filled with the recipient's
 * parameters (recipientContent).
 */
export function arrivalText(content: JobContent, text: string): string {
  if (content.kind === 'utility') return fillBody(content.utility.body, content.utility.params)
  return content.kind === 'optin_request' ? content.title : text
}

export interface ContentSteps extends PartSteps {
  /** Sends the opt-in request; answers the network's message id of it. */
  optInRequest(title: string): Promise<string>
  /** Sends the utility message with the recipient's parameters; answers the network's message id of it. */
  utility?(template: { name: string; language: string; params: string[] }): Promise<string>
}

/**
 * One recipient's send by the job's content (recipientContent): the opt-in request alone, the utility
 * message alone, or the message's parts in order. Answers the opt-in request's or utility message's id
 * (undefined for the owner's message).
 */
export async function sendContent(
  content: JobContent,
  parts: { image: boolean; imageSent: boolean },
  steps: ContentSteps,
): Promise<string | undefined> {
  if (content.kind === 'optin_request') return steps.optInRequest(content.title)
  if (content.kind === 'utility') {
    if (!steps.utility) throw new Error('This sender cannot send utility messages.')
    const { name, language, params } = content.utility
    return steps.utility({ name, language, params })
  }
  await sendParts({ image: parts.image, imageSent: parts.imageSent, text: true }, steps)
  return undefined
}

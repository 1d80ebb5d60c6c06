/**
 * The delivery rules both senders keep (the bulk worker and the chat reply outbox): one classification of a
 * failed Graph call, one check that an uncertain send already arrived, and one order of a message's parts.
 */
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
  fromId: string | undefined
  createdAt: number
  text: string
  hasImage: boolean
}

export interface Arrival {
  textSent: boolean
  imageSent: boolean
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
  return {
    textSent: ours.some((m) => m.text === text && (text !== '' || m.hasImage)),
    imageSent: ours.some((m) => m.hasImage),
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

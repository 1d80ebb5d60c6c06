/**
 * Replies go through the `replyOutbox` table, online or not, so each is delivered exactly once:
 * - written as `pending`, then marked `sending` with its attempt time before the Graph call (write-ahead);
 * - a network failure leaves it `sending`: it may or may not have arrived, so it is *uncertain*;
 * - before an uncertain entry is retried, the conversation's latest messages are read: a message from the
 *   page with the same text at or after the attempt time means it did arrive, and it is not sent again.
 * Flushes run under one Web Lock per page, so two tabs never send the same entry.
 */
import { db, type ReplyOutboxEntry } from '../../../device/db/db.ts'
import { arrival, failureKind, RETRY_LATER, sendParts } from '../../../core/graph/delivery.ts'
import type { GraphErrorKind } from '../../../core/graph/types.ts'

/** A row of the `replyOutbox` table (typed in db.ts). */
export type ReplyEntry = ReplyOutboxEntry

export interface SentMessage {
  fromId: string
  text: string
  createdAt: number
  imageUrls?: readonly string[]
}

export interface OutboxTransport {
  pageId: string
  /** Sends one part of a reply; rejects with something carrying `kind` (a GraphError) on failure. */
  send(entry: ReplyEntry, part: { text: string } | { imageUrl: string }): Promise<void>
  /** The conversation's newest messages, for reconciling an uncertain send. */
  latestMessages(conversationId: string): Promise<SentMessage[]>
  now?: () => number
}

export type FlushOutcome =
  | { id: string; result: 'sent' }
  | { id: string; result: 'failed'; error: string; kind: GraphErrorKind }
  /** Stopped without an answer: offline, auth (refresh the token), throttled or transient. */
  | { id: string; result: 'stopped'; kind: GraphErrorKind }

const table = () => db.replyOutbox

export async function queueReply(
  input: Omit<ReplyEntry, 'id' | 'state' | 'createdAt'> & { now?: number },
): Promise<ReplyEntry> {
  const { now, ...rest } = input
  const entry: ReplyEntry = {
    ...rest,
    id: crypto.randomUUID(),
    state: 'pending',
    createdAt: now ?? Date.now(),
  }
  await table().add(entry)
  return entry
}

/** Replies of one conversation that are not delivered yet (pending, uncertain or failed), oldest first. */
export function undeliveredReplies(pageId: string, conversationId: string): Promise<ReplyEntry[]> {
  return table().where('[pageId+conversationId]').equals([pageId, conversationId]).sortBy('createdAt')
}

export function discardReply(id: string): Promise<void> {
  return table().delete(id)
}

export function arrived(entry: ReplyEntry, pageId: string, latest: readonly SentMessage[]): boolean {
  const seen = latest.map((m) => ({ ...m, hasImage: (m.imageUrls?.length ?? 0) > 0 }))
  return arrival(seen, pageId, entry.text, entry.attemptAt ?? entry.createdAt).textSent
}

async function deliver(entry: ReplyEntry, t: OutboxTransport, now: () => number): Promise<FlushOutcome> {
  if (entry.state === 'sending') {
    let latest: SentMessage[]
    try {
      latest = await t.latestMessages(entry.conversationId)
    } catch (error) {
      return { id: entry.id, result: 'stopped', kind: failureKind(error) }
    }
    if (arrived(entry, t.pageId, latest)) {
      await table().delete(entry.id)
      return { id: entry.id, result: 'sent' }
    }
  }
  await table().update(entry.id, { state: 'sending', attemptAt: now() })
  try {
    await sendParts(
      { image: !!entry.imageUrl, imageSent: !!entry.imageSent, text: entry.text !== '' },
      {
        image: () => t.send(entry, { imageUrl: entry.imageUrl! }),
        imageWent: async () => {
          await table().update(entry.id, { imageSent: true })
        },
        text: () => t.send(entry, { text: entry.text }),
      },
    )
    await table().delete(entry.id)
    return { id: entry.id, result: 'sent' }
  } catch (error) {
    const kind = failureKind(error)
    // Only a failure without an answer leaves the entry uncertain; an answered error means "not delivered".
    if (kind !== 'network')
      await table().update(
        entry.id,
        RETRY_LATER.has(kind)
          ? { state: 'pending' }
          : { state: 'failed', error: String((error as Error)?.message ?? error) },
      )
    if (RETRY_LATER.has(kind)) return { id: entry.id, result: 'stopped', kind }
    return { id: entry.id, result: 'failed', error: String((error as Error)?.message ?? error), kind }
  }
}

async function flushUnlocked(t: OutboxTransport, onlyConversation?: string): Promise<FlushOutcome[]> {
  const now = t.now ?? Date.now
  const all = await table().where('state').anyOf('pending', 'sending').sortBy('createdAt')
  const outcomes: FlushOutcome[] = []
  for (const entry of all) {
    if (entry.pageId !== t.pageId) continue
    if (onlyConversation && entry.conversationId !== onlyConversation) continue
    const outcome = await deliver(entry, t, now)
    outcomes.push(outcome)
    if (outcome.result === 'stopped') break
  }
  return outcomes
}

/** Sends every undelivered reply of the page, oldest first, stopping at the first that cannot go now. */
export async function flushReplies(t: OutboxTransport, onlyConversation?: string): Promise<FlushOutcome[]> {
  if (typeof navigator === 'undefined' || !navigator.locks) return flushUnlocked(t, onlyConversation)
  // The lib types the callback's promise as nested; the lock resolves with the flush's own result.
  const outcomes: FlushOutcome[] = await navigator.locks.request(`pagecast-reply-outbox:${t.pageId}`, () =>
    flushUnlocked(t, onlyConversation),
  )
  return outcomes
}

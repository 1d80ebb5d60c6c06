/**
 * The event streams open on this instance, fed from the database: every instance LISTENs to
 * `pagecast_events`, reads the announced rows of the users it has streams for, and writes them out. Nothing
 * is handed from request to stream in memory, so a webhook taken by one instance reaches the streams of all.
 */
import type { Store } from '../db/store.ts'
import {
  EVENTS_CHANNEL,
  eventsByIds,
  eventsSince,
  lastEventId,
  type OwnerEventRow,
  parseNotifyPayload,
  pruneOwnerEvents,
} from '../repo/owner-events.ts'
import { prunePresence } from '../repo/presence.ts'
import { purgeSendHistory } from '../repo/send-history.ts'
import { pruneWebhookEvents } from '../repo/webhook-events.ts'

/** One open stream: the hub writes SSE frames to it. */
export interface StreamSink {
  userId: string
  /** Writes raw SSE text; answers false when the connection is gone. */
  write(frame: string): boolean
  close(): void
}

export interface HubOptions {
  heartbeatMs?: number
  /** Streams per user on this instance; past it the oldest is closed (a new tab matters more). */
  maxStreamsPerUser?: number
  /** Events a resuming stream is sent before it is told to refetch instead. */
  catchUpLimit?: number
  pruneEveryMs?: number
}

const SENT_MEMORY = 512
/** Announced events read in one query at most. */
const READ_BATCH = 2_000

class Stream {
  lastId = 0
  private readonly sent = new Set<number>()
  /** Live events that arrived while the catch-up was being read. */
  pending: OwnerEventRow[] | undefined = []
  constructor(readonly sink: StreamSink) {}

  /** Writes the rows not sent yet, in one write. */
  sendAll(rows: readonly OwnerEventRow[]): void {
    let text = ''
    for (const row of rows) {
      if (this.sent.has(row.id)) continue
      this.sent.add(row.id)
      if (this.sent.size > SENT_MEMORY) this.sent.delete(this.sent.values().next().value!)
      this.lastId = Math.max(this.lastId, row.id)
      text += frame(row.id, row.type, row.data)
    }
    if (text) this.sink.write(text)
  }
}

export function frame(id: number | undefined, type: string, data: unknown): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`
}

export class EventHub {
  private readonly byUser = new Map<string, Stream[]>()
  private stop: (() => Promise<void>) | undefined
  /** Announced event ids of users with streams here, not read yet; `reading` while a read runs. */
  private unread: number[] = []
  private reading = false
  private heartbeat: NodeJS.Timeout | undefined
  private pruner: NodeJS.Timeout | undefined
  private readonly heartbeatMs: number
  private readonly maxStreamsPerUser: number
  private readonly catchUpLimit: number
  private readonly pruneEveryMs: number

  constructor(
    private readonly store: Store,
    options: HubOptions = {},
    private readonly log: { warn(obj: object, msg: string): void } = console,
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 20_000
    this.maxStreamsPerUser = options.maxStreamsPerUser ?? 20
    this.catchUpLimit = options.catchUpLimit ?? 1_000
    this.pruneEveryMs = options.pruneEveryMs ?? 10 * 60_000
  }

  async start(): Promise<void> {
    this.stop = await this.store.listen(
      EVENTS_CHANNEL,
      (payload) => this.announced(payload),
      () => void this.resume(),
    )
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs)
    this.heartbeat.unref()
    this.pruner = setInterval(() => void this.prune(), this.pruneEveryMs)
    this.pruner.unref()
  }

  /** Ends every open stream (the server is stopping; the apps reconnect elsewhere and catch up). */
  endStreams(): void {
    for (const list of this.byUser.values()) for (const s of list) s.sink.close()
    this.byUser.clear()
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat)
    clearInterval(this.pruner)
    this.endStreams()
    const stop = this.stop
    this.stop = undefined
    await stop?.()
  }

  /** Streams open on this instance (all users). */
  get size(): number {
    let n = 0
    for (const list of this.byUser.values()) n += list.length
    return n
  }

  /**
   * Opens a stream: live events from now on, after the user's stored events since `since` when given (or a
   * `refetch` when those are no longer all kept). Answers a function that ends it.
   */
  async open(sink: StreamSink, since: number | undefined): Promise<() => void> {
    const stream = new Stream(sink)
    const list = this.byUser.get(sink.userId) ?? []
    list.push(stream)
    this.byUser.set(sink.userId, list)
    while (list.length > this.maxStreamsPerUser) list.shift()!.sink.close()
    const end = () => this.remove(stream)
    try {
      if (since === undefined) {
        // Where this stream starts: a reconnection resumes from here even when no event came before.
        stream.lastId = await lastEventId(this.store)
        sink.write(frame(stream.lastId, 'ready', {}))
      } else {
        await this.catchUp(stream, since)
      }
    } finally {
      const pending = stream.pending ?? []
      stream.pending = undefined
      stream.sendAll(pending)
    }
    return end
  }

  private async catchUp(stream: Stream, since: number): Promise<void> {
    const result = await eventsSince(this.store, stream.sink.userId, since, this.catchUpLimit)
    if (result.kind === 'gap') {
      stream.lastId = result.resumeFrom
      stream.sink.write(frame(result.resumeFrom, 'refetch', { reason: result.reason }))
      return
    }
    stream.lastId = since
    stream.sendAll(result.rows)
  }

  private remove(stream: Stream): void {
    const list = this.byUser.get(stream.sink.userId)
    if (!list) return
    const i = list.indexOf(stream)
    if (i >= 0) list.splice(i, 1)
    if (list.length === 0) this.byUser.delete(stream.sink.userId)
  }

  /** Hands each stream its rows (oldest first), in one write per stream. */
  private deliver(rows: readonly OwnerEventRow[]): void {
    const owed = new Map<Stream, OwnerEventRow[]>()
    for (const row of rows) {
      for (const stream of this.byUser.get(String(row.user_id)) ?? []) {
        if (stream.pending) stream.pending.push(row)
        else {
          const list = owed.get(stream)
          if (list) list.push(row)
          else owed.set(stream, [row])
        }
      }
    }
    for (const [stream, list] of owed) stream.sendAll(list)
  }

  /**
   * Notes the announced ids of users with a stream here. They are read together: those announced in one go (a
   * read of the listening connection hands over many) in one query, and those announced while a read runs in
   * the next, so a busy page costs a query per round trip, not per event.
   */
  private announced(payload: string): void {
    for (const e of parseNotifyPayload(payload)) if (this.byUser.has(e.userId)) this.unread.push(e.id)
    if (this.unread.length === 0 || this.reading) return
    this.reading = true
    queueMicrotask(() => void this.readAnnounced())
  }

  private async readAnnounced(): Promise<void> {
    try {
      while (this.unread.length > 0) {
        const ids = this.unread.splice(0, READ_BATCH)
        try {
          this.deliver(await eventsByIds(this.store, ids))
        } catch (err) {
          this.log.warn({ err }, 'event stream: announced events could not be read')
        }
      }
    } finally {
      this.reading = false
    }
  }

  /** The listening connection was re-opened: what was announced meanwhile is read per stream. */
  private async resume(): Promise<void> {
    for (const list of [...this.byUser.values()]) {
      for (const stream of [...list]) {
        if (stream.pending) continue
        try {
          const result = await eventsSince(this.store, stream.sink.userId, stream.lastId, this.catchUpLimit)
          if (result.kind === 'gap') {
            stream.lastId = result.resumeFrom
            stream.sink.write(frame(result.resumeFrom, 'refetch', { reason: result.reason }))
          } else stream.sendAll(result.rows)
        } catch (err) {
          this.log.warn({ err }, 'event stream: catch-up after a reconnection failed')
        }
      }
    }
  }

  private beat(): void {
    for (const list of this.byUser.values())
      for (const s of [...list]) if (!s.sink.write(': hb\n\n')) s.sink.close()
  }

  private async prune(): Promise<void> {
    try {
      await pruneOwnerEvents(this.store)
      await prunePresence(this.store)
      await pruneWebhookEvents(this.store)
      await purgeSendHistory(this.store)
    } catch (err) {
      this.log.warn({ err }, 'pruning old events, presence reports, webhook bodies or send reports failed')
    }
  }
}

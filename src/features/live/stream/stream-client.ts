/**
 * One live stream per tab: an `EventSource` on `/api/v2/events?tab=<id>`, with its own reconnection. The
 * browser's built-in retry is not used: after an error the source is closed and opened again after a backoff
 * (src/core/network/backoff.ts), at once when the connection comes back or the tab is shown again, and always
 * with `since=<last event id>`, so the server sends what was missed (or a `refetch` after too long a gap).
 */
import { backoff } from '../../../core/network/backoff.ts'
import { LIVE_EVENT_TYPES, parseLiveEvent, type LiveEvent } from '../model/events.ts'

/** The first wait after a drop; it doubles up to RECONNECT_MAX_MS. */
export const RECONNECT_BASE_MS = 1_000
/** The longest wait between two attempts while the server stays unreachable. */
export const RECONNECT_MAX_MS = 30_000

export const EVENTS_PATH = '/api/v2/events'
/** An event that carries only the id of the user's newest event, so a stream can resume before any other. */
export const READY_EVENT = 'ready'

/** What the client needs of an EventSource (the browser's, or a test's). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void
  close(): void
  onopen: ((this: never, ev: Event) => unknown) | null
  onerror: ((this: never, ev: Event) => unknown) | null
}

export type StreamStatus = 'connecting' | 'open' | 'waiting' | 'offline' | 'stopped'

export interface StreamOptions {
  tabId: string
  /** Handled one at a time, in the order received. */
  onEvent: (event: LiveEvent) => void | Promise<void>
  onStatus?: (status: StreamStatus) => void
  path?: string
  createSource?: (url: string) => EventSourceLike
  base?: number
  max?: number
  random?: () => number
  /** The window whose online/offline and visibility events the client follows. */
  target?: Window
}

export interface LiveStream {
  /** The id of the last event received: the next connection resumes after it. */
  readonly lastEventId: string | undefined
  readonly status: StreamStatus
  /** The number of connections opened so far. */
  readonly connections: number
  stop(): void
}

export function streamUrl(path: string, tabId: string, since: string | undefined): string {
  const query = new URLSearchParams({ tab: tabId })
  if (since) query.set('since', since)
  return `${path}?${query.toString()}`
}

export function startLiveStream(options: StreamOptions): LiveStream {
  const {
    tabId,
    onEvent,
    path = EVENTS_PATH,
    createSource = (url) => new EventSource(url, { withCredentials: true }) as unknown as EventSourceLike,
    base = RECONNECT_BASE_MS,
    max = RECONNECT_MAX_MS,
    random = Math.random,
    target = window,
  } = options
  let source: EventSourceLike | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let attempt = 0
  let lastEventId: string | undefined
  let status: StreamStatus = 'connecting'
  let connections = 0
  let queue: Promise<void> = Promise.resolve()

  const setStatus = (next: StreamStatus) => {
    status = next
    options.onStatus?.(next)
  }
  const close = () => {
    if (source) {
      source.onopen = null
      source.onerror = null
      source.close()
      source = undefined
    }
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }
  const enqueue = (event: LiveEvent) => {
    queue = queue
      .then(() => onEvent(event))
      .catch((error: unknown) => console.error('live event failed', event.type, error))
  }
  const receive = (type: string) => (message: MessageEvent<string>) => {
    if (message.lastEventId) lastEventId = message.lastEventId
    const event = parseLiveEvent(type, message.data, message.lastEventId || undefined)
    if (event) enqueue(event)
  }
  const connect = () => {
    close()
    if (status === 'stopped') return
    if (!navigator.onLine) return setStatus('offline')
    setStatus('connecting')
    // A reconnection with no event id to resume from cannot be caught up by the server: what was missed
    // while away is read again from the network instead, as after a gap.
    const blind = connections > 0 && lastEventId === undefined
    connections++
    const opened = createSource(streamUrl(path, tabId, lastEventId))
    source = opened
    for (const type of LIVE_EVENT_TYPES) opened.addEventListener(type, receive(type))
    // `ready` (sent first by a server that names the newest event id) only gives the point to resume from.
    opened.addEventListener(READY_EVENT, (message) => {
      if (message.lastEventId) lastEventId = message.lastEventId
    })
    opened.onopen = () => {
      attempt = 0
      setStatus('open')
      if (blind) enqueue({ type: 'refetch', data: { reason: 'gap' } })
    }
    opened.onerror = () => {
      // The browser would retry on its own, without our backoff or `since`: take over.
      close()
      if (!navigator.onLine) return setStatus('offline')
      attempt++
      setStatus('waiting')
      timer = setTimeout(connect, backoff(attempt, base, max, random))
    }
  }
  const online = () => {
    attempt = 0
    connect()
  }
  const offline = () => {
    close()
    setStatus('offline')
  }
  const visible = () => {
    // A phone that froze the tab broke the connection: coming back, do not wait out the backoff.
    if (document.visibilityState === 'visible' && status === 'waiting') connect()
  }
  target.addEventListener('online', online)
  target.addEventListener('offline', offline)
  target.document.addEventListener('visibilitychange', visible)
  connect()

  return {
    get lastEventId() {
      return lastEventId
    },
    get status() {
      return status
    },
    get connections() {
      return connections
    },
    stop() {
      target.removeEventListener('online', online)
      target.removeEventListener('offline', offline)
      target.document.removeEventListener('visibilitychange', visible)
      close()
      setStatus('stopped')
    },
  }
}

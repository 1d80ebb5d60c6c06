/**
 * Every message between the sender worker, the tabs and the progress cards: one typed union, built only through
 * the constructors below, checked by `isBulkMessage` where it enters from outside (worker port, channel).
 * Tokens travel in memory only; nothing here is ever stored.
 */
import type { BulkJobState } from '../db/db.ts'
import type { SubscriptionState } from '../../core/contracts/api.ts'
import type { GraphErrorKind } from '../../core/graph/types.ts'

/** The BroadcastChannel that carries progress and control between tabs and the sender. */
export const PROGRESS_CHANNEL = 'bulk-progress'
/** The stop reason of a job waiting for a page the accounts list shows without a token: reconnect it. */
export const NO_PAGE_TOKEN = 'no_page_token'

/** The Web Lock that makes one sender per browser profile. */
export const SENDER_LOCK = 'bulk-sender'

export interface SenderSettings {
  apiBase: string
  apiToken: string
  graphUrl: string
  graphVersion: string
  pacingScale: number
  /** pageId -> page access token, from the accounts list in memory. */
  pageTokens: Record<string, string>
  subscription: SubscriptionState | null
}

export interface Counts {
  sent: number
  rejected: number
  skipped: number
  total: number
}

export type BulkMessage =
  | { type: 'start'; settings: SenderSettings }
  | { type: 'tokens'; apiToken?: string; pageTokens: Record<string, string> }
  | { type: 'wake'; reason: 'job-added' | 'control' | 'online' | 'visible' }
  | { type: 'progress'; jobId: string; state: BulkJobState; counts: Counts; stopReason?: string }
  /** `kind`: the failure's class, said in each tab's language; `error`: the network's own text, or a reason. */
  | { type: 'rejected'; jobId: string; recipientName: string; error: string; kind?: GraphErrorKind }
  | { type: 'allowance'; subscription: SubscriptionState }
  | { type: 'need-token'; pageId: string }
  /** A tab's answer to `need-token` when the accounts list gave the page no token. */
  | { type: 'no-token'; pageId: string }
  | { type: 'lock'; holding: boolean }
  /** Signing out: every sender closes at once, before the device's data is wiped. */
  | { type: 'stop' }

export const bulkMessage = {
  start: (settings: SenderSettings): BulkMessage => ({ type: 'start', settings }),
  tokens: (pageTokens: Record<string, string>, apiToken?: string): BulkMessage =>
    apiToken ? { type: 'tokens', pageTokens, apiToken } : { type: 'tokens', pageTokens },
  wake: (reason: 'job-added' | 'control' | 'online' | 'visible'): BulkMessage => ({ type: 'wake', reason }),
  progress: (jobId: string, state: BulkJobState, counts: Counts, stopReason?: string): BulkMessage =>
    stopReason
      ? { type: 'progress', jobId, state, counts, stopReason }
      : { type: 'progress', jobId, state, counts },
  rejected: (jobId: string, recipientName: string, error: string, kind?: GraphErrorKind): BulkMessage =>
    kind
      ? { type: 'rejected', jobId, recipientName, error, kind }
      : { type: 'rejected', jobId, recipientName, error },
  allowance: (subscription: SubscriptionState): BulkMessage => ({ type: 'allowance', subscription }),
  needToken: (pageId: string): BulkMessage => ({ type: 'need-token', pageId }),
  noToken: (pageId: string): BulkMessage => ({ type: 'no-token', pageId }),
  lock: (holding: boolean): BulkMessage => ({ type: 'lock', holding }),
  stop: (): BulkMessage => ({ type: 'stop' }),
}

const TYPES = new Set<BulkMessage['type']>([
  'start',
  'tokens',
  'wake',
  'progress',
  'rejected',
  'allowance',
  'need-token',
  'no-token',
  'lock',
  'stop',
])

export function isBulkMessage(value: unknown): value is BulkMessage {
  if (typeof value !== 'object' || value === null) return false
  const type = (value as { type?: unknown }).type
  return typeof type === 'string' && TYPES.has(type as BulkMessage['type'])
}

/** A channel as the sender needs it; tests inject an in-memory one. */
export interface BulkChannel {
  post(message: BulkMessage): void
  subscribe(listener: (message: BulkMessage) => void): () => void
}

export function broadcastChannel(name = PROGRESS_CHANNEL): BulkChannel & { close(): void } {
  const channel = new BroadcastChannel(name)
  return {
    post: (message) => channel.postMessage(message),
    subscribe(listener) {
      const handler = (event: MessageEvent) => {
        if (isBulkMessage(event.data)) listener(event.data)
      }
      channel.addEventListener('message', handler)
      return () => channel.removeEventListener('message', handler)
    },
    close: () => channel.close(),
  }
}

/** What a running job needs from outside, and the bookkeeping of one run. */
import type { BulkChannel, BulkMessage } from '../device/bulk/protocol.ts'
import type { Recorded } from '../device/bulk/job-steps.ts'
import type { SenderApi, SenderGraph, Subscription } from '../core/bulk/ports.ts'

export interface RunDeps {
  graph: SenderGraph
  api: SenderApi
  channel: BulkChannel
  pageToken(pageId: string): string | undefined
  /** The page token failed (auth): forget it until a tab hands a fresh one. */
  dropPageToken(pageId: string): void
  /** A tab answered that the accounts list has no token for the page (until a token arrives). */
  tokenRefused(pageId: string): boolean
  subscription(): Subscription
  setSubscription(sub: Subscription): void
  now(): number
  random(): number
  /** Resolves after `ms`, or earlier when something wakes the sender (control, online, tokens). */
  sleep(ms: number): Promise<void>
  pacingScale: number
  /** Tells this worker's own tab (the channel reaches only the others): it holds the sender lock. */
  announce?(message: BulkMessage): void
  /** The holder is going away (its tab closes); stop at the next step. */
  signal?: AbortSignal
}

export type RunOutcome = 'finished' | 'stopped' | 'paused' | 'lost' | 'gone'

/** What one run of a job keeps between its steps, besides the machine's own. */
export interface Streaks {
  /** Waits for the connection in a row (the recipients' sync, the lease), reset by a step that went through. */
  offline: number
  /** Storage failures in a row. */
  storage: number
  /** Whether queued touches may wait in the outbox (at the start, after a failed or indirect touch). */
  outboxDirty: boolean
  /** Asks for a page token since the last send, and when the next ask may go (see token-wait.ts). */
  tokenAsks: number
  tokenAskAt: number
  /** Outbox keys the server acknowledged, removed in the next result's transaction (see touch-outbox.ts). */
  acknowledged: string[]
  /** The last result recorded: the counts and its queued touch. */
  recorded?: Recorded
}

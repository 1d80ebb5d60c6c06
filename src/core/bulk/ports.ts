/** What the sender needs from the outside world; the worker entry wires real ones, tests inject fakes. */
import type {
  LeaseBody,
  RecipientInput,
  ReserveBody,
  SubscriptionState,
  TouchBody,
  TouchResponse,
  UncertainRecipient,
} from '../contracts/api.ts'
import type { ContentKind, JobKind, JobMarketing, RecipientWay } from '../contracts/marketing.ts'
import type { GraphClient } from '../graph/types.ts'
import type { UtilityContent } from '../graph/template.ts'

export type SenderGraph = Pick<GraphClient, 'send' | 'uploadAttachment' | 'messages'>

export type TouchOutcome =
  | { kind: 'ok'; response: TouchResponse }
  /** 406: nothing left and not branded; the result is recorded by nobody, the allowance is 0. */
  | { kind: 'refused' }
  /** The record is gone (deleted from another tab or device). */
  | { kind: 'gone' }
  /** 409: the message has no room for this recipient (not in its list, or past its total); nothing recorded. */
  | { kind: 'not_admitted' }

export interface ServerRecipient {
  recipient_id: string
  name: string
  conversation_id: string
  status: 'OK' | 'NG' | null
  sent_as_branded?: boolean
  /** Absent means standard. */
  way?: RecipientWay
}

export interface OpenServerJob {
  id: string
  page_id: string
  message: string
  image_url?: string | null
  tag?: string | null
  label?: string
  total_messages: number
  branded_messages_amount: number
  created_at?: string
  state?: string
  /** The server holds the job (the owner closed the app): this device sends it only after taking it back. */
  sender?: 'device' | 'server'
  content_kind?: ContentKind
  optin_title?: string | null
  /** A utility job's template and parameters. */
  utility?: UtilityContent | null
  /** Written where the text takes a recipient's first name and the network has none. */
  name_fallback?: string | null
  /** What the job is, fixed when the record was created: a marketing job is never sent by a device. */
  kind: JobKind
  /** A marketing job's campaign budget, once its campaign was created. */
  marketing?: JobMarketing | null
}

/** The server's answer to a lease or a reservation (docs/architecture.md#a-lease-not-a-goodbye). */
export type LeaseOutcome =
  /** Held for `leaseMs` from the request; `uncertain`: sends an earlier holder reserved without a result. */
  | { kind: 'held'; epoch: number; leaseMs: number; uncertain: UncertainRecipient[] }
  /** The server sends the job (it took it when the lease lapsed, or it was handed over). */
  | { kind: 'server' }
  /** Another device holds the lease, or the job ended on the server. */
  | { kind: 'elsewhere' }
  /** The job is gone from the server. */
  | { kind: 'gone' }

export interface SenderApi {
  /** Takes or renews the job's lease; rejects on network failure or a 5xx. */
  lease(jobId: string, body: Partial<LeaseBody>): Promise<LeaseOutcome>
  /** Reserves recipients before they are sent (renewing the lease); rejects on network failure or a 5xx. */
  reserve(jobId: string, body: ReserveBody): Promise<LeaseOutcome>
  /** Rejects on network failure or a 5xx so the entry stays queued. */
  touch(jobId: string, body: TouchBody): Promise<TouchOutcome>
  setState(jobId: string, state: 'finished' | 'stopped', reason?: string): Promise<void>
  /**
   * Appends recipients to the job's list in this order (repeats ignored): answers how many were added and how
   * many the job holds. Rejects on network failure or any refusal (a 429 with the server's `Retry-After`).
   */
  putRecipients(jobId: string, list: RecipientInput[]): Promise<{ added: number; total: number }>
  listOpen(): Promise<OpenServerJob[]>
  listRecipients(jobId: string, after?: string): Promise<{ data: ServerRecipient[]; next: string | null }>
}

export type Subscription = SubscriptionState | null

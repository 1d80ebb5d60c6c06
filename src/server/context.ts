/** What every route module receives: the config, the store, and the outside services it may call. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ServerConfig } from './config.ts'
import type { ReadCache } from './db/read-cache.ts'
import type { Store } from './db/store.ts'
import type { EventHub } from './events/hub.ts'
import type { GraphApi } from './graph/graph-api.ts'
import type { PaymentProvider } from './payments/provider.ts'
import type { PushDeps } from './push/notify.ts'
import type { VapidKeys } from './push/vapid.ts'
import type { SubscriptionRow } from './repo/subscriptions.ts'
import type { MarketingJobGraph } from './bulk/marketing.ts'
import type { TokenBox } from './bulk/token-box.ts'
import type { CustomerMessageNotice } from './webhooks/notice.ts'

export type { CustomerMessageNotice }
import type { BindingVerdict } from './repo/page-bindings.ts'

/** The server sender's part of the API: the page-token seal and the queue that runs server-held jobs. */
export interface ServerJobs {
  box: TokenBox
  /** The pacing's shortest wait between two sends, as the server sender paces (scaled only in the sandbox). */
  pacingFloorMs: number
  /** Asks for a run of a server-held job now (or at `at`, epoch ms). */
  kick(messageId: string, at?: number): Promise<void>
  schedule(messageId: string, at: number): Promise<string | null>
  cancel(queueJobId: string): Promise<void>
}

export interface RateLimits {
  /** Login attempts per minute and client address. */
  login: number
  /** Uploads per minute and client address. */
  upload: number
  /** Calls per minute and user of each route that calls the network or stores a list (`http/user-limit.ts`). */
  network: number
}

export interface ApiContext {
  config: ServerConfig
  store: Store
  graph: GraphApi
  payments: PaymentProvider
  rateLimits: RateLimits
  /** Bearer check for a route's `preHandler` (given the reply, it renews the session cookie it came with). */
  authenticate: (request: FastifyRequest, reply?: FastifyReply) => Promise<void>
  /** The subscription rows `GET /user` answers from, kept for a moment (see `db/read-cache.ts`). */
  subscriptionCache: ReadCache<SubscriptionRow>
  /** The keys pushes are signed with (configured, or generated into DATA_DIR). */
  vapid: VapidKeys
  /** What `push/notify.ts` sends with: `notifyCustomerMessage(ctx.push, event)`, `notifyUser(ctx.push, …)`. */
  push: PushDeps
  /** The event streams open on this instance (fed through the database's LISTEN/NOTIFY). */
  events: EventHub
  /**
   * Called once for each new customer message a webhook brings (never for a duplicate or an echo), after it
   * is stored: push notifications hook in here.
   */
  onCustomerMessage?: ((notice: CustomerMessageNotice) => Promise<void> | void) | undefined
  /** Seals page tokens at rest (server-held jobs, page bindings, marketing subscription tokens). */
  box: TokenBox
  /**
   * Checks the user's binding to the page with the network again (routes/page-access.ts), with `token` when a
   * page token of the user's just failed; a binding the network no longer vouches for is revoked.
   */
  recheckBinding(userId: string, pageId: string, token?: string): Promise<BindingVerdict>
  /** Absent when the server sender is switched off (some tests). */
  jobs?: ServerJobs
  /** The network's Marketing Message API as a job's campaign needs it; absent: marketing jobs are refused. */
  marketingJobGraph?: MarketingJobGraph | undefined
}

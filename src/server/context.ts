/** What every route module receives: the config, the store, and the outside services it may call. */
import type { FastifyRequest } from 'fastify'
import type { ServerConfig } from './config.ts'
import type { ReadCache } from './db/read-cache.ts'
import type { Store } from './db/store.ts'
import type { GraphApi } from './graph/graph-api.ts'
import type { PaymentProvider } from './payments/provider.ts'
import type { SubscriptionRow } from './repo/subscriptions.ts'
import type { TokenBox } from './bulk/token-box.ts'

/** The server sender's part of the API: the page-token seal and the queue that runs server-held jobs. */
export interface ServerJobs {
  box: TokenBox
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
}

export interface ApiContext {
  config: ServerConfig
  store: Store
  graph: GraphApi
  payments: PaymentProvider
  rateLimits: RateLimits
  /** Bearer check for a route's `preHandler`. */
  authenticate: (request: FastifyRequest) => Promise<void>
  /** The subscription rows `GET /user` answers from, kept for a moment (see `db/read-cache.ts`). */
  subscriptionCache: ReadCache<SubscriptionRow>
  /** Absent when the server sender is switched off (some tests). */
  jobs?: ServerJobs
}

/** What every route module receives: the config, the store, and the outside services it may call. */
import type { FastifyRequest } from 'fastify'
import type { ServerConfig } from './config.ts'
import type { Store } from './db/store.ts'
import type { GraphApi } from './graph/graph-api.ts'
import type { PaymentProvider } from './payments/provider.ts'

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
}

/**
 * The per-user limit of the routes that call the network (the Graph with the app token, the payment provider)
 * or store a list. It runs after the bearer check, so it counts the signed-in account whatever address the
 * calls come from, in the shared `rate_limits` table (instances on one database count together); each route
 * has its own count. Past it the route answers 429 with `Retry-After`, before anything is called or stored.
 */
import type { RouteShorthandOptions } from 'fastify'
import type { ApiContext } from '../context.ts'
import { currentUser } from './auth.ts'

/** The route options of such a route: the bearer check, then the user's count for this route. */
export function userLimited(ctx: Pick<ApiContext, 'authenticate' | 'rateLimits'>): RouteShorthandOptions {
  return {
    preHandler: ctx.authenticate,
    config: {
      rateLimit: {
        max: ctx.rateLimits.network,
        timeWindow: '1 minute',
        hook: 'preHandler',
        keyGenerator: (request) => `user:${currentUser(request).id}`,
      },
    },
  }
}

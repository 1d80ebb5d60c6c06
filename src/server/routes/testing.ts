/**
 * Test routes, mounted only with `TEST_ROUTES` and the sandbox as the network (src/server/config.ts refuses
 * them otherwise): the signed-in account put in a subscription state (docs/architecture.md#testing-states).
 */
import type { FastifyInstance } from 'fastify'
import { testSubscriptionBody } from '../../core/contracts/testing.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { parse } from '../http/errors.ts'
import { putSubscriptionState } from '../repo/subscription-states.ts'
import { subscriptionState } from '../repo/subscriptions.ts'

export function testingRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }

  app.post('/testing/subscription', auth, async (request) => {
    const { state } = parse(testSubscriptionBody, request.body ?? {})
    const userId = currentUser(request).id
    await putSubscriptionState(ctx.store, userId, state)
    return { data: { subscription: await subscriptionState(ctx.store, userId) } }
  })
}

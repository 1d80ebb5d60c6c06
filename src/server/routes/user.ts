/** The signed-in user's subscription state and the actions on it that do not involve payment. */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { confirmBrandedBody } from '../../core/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { notAcceptable, parse } from '../http/errors.ts'
import {
  acceptLatestTerms,
  allowBrandedMessages,
  loadSubscription,
  subscriptionState,
  toMySubscription,
  toState,
} from '../repo/subscriptions.ts'

const acceptTermsBody = z.object({}).strict().nullish()

export function userRoutes(app: FastifyInstance, ctx: ApiContext): void {
  const auth = { preHandler: ctx.authenticate }
  const db = ctx.store

  app.get('/user', auth, async (request) => {
    const user = currentUser(request)
    const row = await ctx.subscriptionCache.get(user.id, () => loadSubscription(db, user.id))
    return { data: { ...user, subscription: toState(row) } }
  })

  app.get('/user/available-messages', auth, async (request) => {
    const subscription = await subscriptionState(db, currentUser(request).id)
    return { available_messages: subscription.available_messages, subscription }
  })

  app.get('/user/subscriptions', auth, async (request) => {
    const row = await loadSubscription(db, currentUser(request).id)
    return { data: [toMySubscription(row)] }
  })

  app.get('/user/subscriptions/my-subscription', auth, async (request) => {
    return toMySubscription(await loadSubscription(db, currentUser(request).id))
  })

  app.post('/user/confirm-brand-messages-usage', auth, async (request) => {
    parse(confirmBrandedBody, request.body)
    const userId = currentUser(request).id
    const row = await loadSubscription(db, userId)
    if (row.is_unlimited && !row.unlimited_blocked)
      throw notAcceptable('Unlimited subscriptions do not need branded messages.', 'branded_not_needed')
    await allowBrandedMessages(db, userId)
    return { data: { subscription: await subscriptionState(db, userId) } }
  })

  app.post('/user/accept-terms', auth, async (request) => {
    parse(acceptTermsBody, request.body)
    const userId = currentUser(request).id
    await acceptLatestTerms(db, userId)
    return { data: { subscription: toState(await loadSubscription(db, userId)) } }
  })
}

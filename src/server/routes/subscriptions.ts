/** Checkout of a plan or an add-on through the payment provider, and cancellation at period end. */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { REFERRAL_DISCOUNT_MONTHS, REFERRAL_DISCOUNT_PERCENT } from '../../core/constants/limits.ts'
import { findPrice } from '../../core/constants/plans.ts'
import { cancelSubscriptionBody, type CheckoutBody, checkoutBody } from '../../core/contracts/api.ts'
import type { ApiContext } from '../context.ts'
import { currentUser } from '../http/auth.ts'
import { userLimited } from '../http/user-limit.ts'
import { HttpError, invalid, notAcceptable, parse } from '../http/errors.ts'
import type { Queryable } from '../db/store.ts'
import { isReferralFor, referralUsed } from '../repo/referrals.ts'
import { createCheckoutSession, setProviderSessionId } from '../repo/checkout-sessions.ts'
import {
  cancelAtPeriodEnd,
  forgetReferralCode,
  isActivePaid,
  keepReferralCodes,
  loadSubscription,
  type SubscriptionRow,
  toState,
} from '../repo/subscriptions.ts'

export const ADDON_NEEDS_SUBSCRIPTION =
  'Add-ons need an active subscription. Please subscribe to a plan first.'
export const NOTHING_TO_CANCEL = 'There is no paid subscription to cancel.'

const RETURN_ELSEWHERE = 'The return address must be on this site.'

/** The return addresses of a checkout that are not on the product's own origin (`PUBLIC_URL`), as errors. */
function returnElsewhere(
  body: Pick<CheckoutBody, 'success_url' | 'cancel_url'>,
  publicUrl: string,
): Record<string, string[]> | undefined {
  const own = new URL(publicUrl).origin
  const errors: Record<string, string[]> = {}
  for (const field of ['success_url', 'cancel_url'] as const)
    if (new URL(body[field]).origin !== own) errors[field] = [RETURN_ELSEWHERE]
  return Object.keys(errors).length > 0 ? errors : undefined
}

const REFERRAL_INVALID = 'This referral code is not valid.'

/**
 * The affiliate's code a plan is discounted with, or null. A `referral` or `coupon` given must be an
 * affiliate's code and not the buyer's own (else 422); without one, the code kept from the login counts. The
 * discount is the customer's once: after a paid discounted checkout, none.
 */
async function referralOf(
  db: Queryable,
  userId: string,
  sub: SubscriptionRow,
  body: Pick<CheckoutBody, 'referral' | 'coupon'>,
): Promise<string | null> {
  const given = (['referral', 'coupon'] as const).filter((field) => body[field])
  for (const field of given) {
    const code = body[field]!
    if (await isReferralFor(db, code, sub.facebook_id)) continue
    // A kept code that is not one is forgotten, so the app's next checkout goes through.
    await forgetReferralCode(db, userId, code)
    throw invalid(field, REFERRAL_INVALID)
  }
  let code = given.length > 0 ? body[given[0]!]! : null
  if (given.length > 0) await keepReferralCodes(db, userId, body.referral ?? null, body.coupon ?? null)
  for (const kept of [sub.referral, sub.coupon])
    if (!code && kept && (await isReferralFor(db, kept, sub.facebook_id))) code = kept
  if (code && (await referralUsed(db, userId))) return null
  return code
}

export function subscriptionRoutes(app: FastifyInstance, ctx: ApiContext): void {
  /** Checkout and cancellation call the payment provider: limited per user. */
  const limited = userLimited(ctx)
  const db = ctx.store

  app.post('/user/subscriptions/checkout', limited, async (request) => {
    const body = parse(checkoutBody, request.body)
    const user = currentUser(request)
    const elsewhere = returnElsewhere(body, ctx.config.publicUrl)
    if (elsewhere) throw new HttpError(422, 'The given data was invalid.', elsewhere)
    const match = findPrice(body.price_id)
    if (!match) throw invalid('price_id', 'This price does not exist.')
    if (body.is_addon === true && match.kind !== 'addon')
      throw invalid('price_id', 'This price is a plan, not an add-on.')
    const sub = await loadSubscription(db, user.id)
    if (match.kind === 'addon' && !isActivePaid(sub))
      throw notAcceptable(ADDON_NEEDS_SUBSCRIPTION, 'addon_needs_subscription')

    const referral = match.kind === 'plan' ? await referralOf(db, user.id, sub, body) : null
    const discountPercent = referral ? REFERRAL_DISCOUNT_PERCENT : 0
    const price =
      match.kind === 'plan'
        ? match.interval === 'year'
          ? match.plan.priceAnnually
          : match.plan.price
        : match.addon.price
    const charged = Math.round(price * (100 - discountPercent)) / 100
    const sessionId = `cs_${randomBytes(12).toString('hex')}`
    await createCheckoutSession(db, {
      id: sessionId,
      userId: user.id,
      provider: ctx.payments.name,
      priceId: body.price_id,
      kind: match.kind,
      amount: charged,
      discountPercent,
      referral,
    })
    let result
    try {
      result = await ctx.payments.createCheckout({
        sessionId,
        kind: match.kind,
        priceId: body.price_id,
        productName: match.kind === 'plan' ? `Pagecast ${match.plan.title}` : `Pagecast ${match.addon.name}`,
        amount: price,
        interval: match.kind === 'plan' ? match.interval : undefined,
        discountPercent,
        discountMonths: REFERRAL_DISCOUNT_MONTHS,
        successUrl: body.success_url,
        cancelUrl: body.cancel_url,
        customerEmail: user.email,
      })
    } catch (err) {
      request.log.error({ err }, 'checkout could not be created')
      throw new HttpError(502, 'The payment provider could not start the checkout. Please try again.')
    }
    if (result.providerSessionId) {
      await setProviderSessionId(db, sessionId, result.providerSessionId)
    }
    return { data: { url: result.url } }
  })

  app.post('/user/subscriptions/cancel-subscription', limited, async (request) => {
    const body = parse(cancelSubscriptionBody, request.body)
    const userId = currentUser(request).id
    const sub = await loadSubscription(db, userId)
    if (!isActivePaid(sub)) throw notAcceptable(NOTHING_TO_CANCEL, 'nothing_to_cancel')
    if (!sub.cancel_at_period_end) {
      try {
        await ctx.payments.cancelAtPeriodEnd(sub.provider_subscription_id)
      } catch (err) {
        request.log.error({ err }, 'cancellation failed at the provider')
        throw new HttpError(502, 'The payment provider could not cancel the subscription. Please try again.')
      }
      await cancelAtPeriodEnd(db, userId, body.cancellation_reason)
    }
    return { data: { subscription: toState(await loadSubscription(db, userId)) } }
  })
}

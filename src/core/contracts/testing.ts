/**
 * The test routes' contract (`POST /api/v2/testing/subscription`, mounted only with `TEST_ROUTES` and the
 * sandbox as the network; docs/architecture.md#testing-states): the subscription states a test can put the
 * signed-in account in.
 */
import { z } from './zod.ts'

export const SUBSCRIPTION_STATES = [
  /** A first login's trial: every trial message left. */
  'trial-full',
  /** A trial with 60 messages left (at or under the branded banner's threshold). */
  'trial-60',
  /** A trial with nothing left and branded messages not authorised: sending is refused. */
  'none-left',
  /** The Starter plan, paid monthly, its messages untouched. */
  'paid',
  /** An unlimited subscription within fair use (no messages of its own: nothing is spent). */
  'unlimited',
  /** An unlimited subscription past the fair-use limit, nothing left: sending is refused. */
  'unlimited-blocked',
  /** A paid plan the provider ended: no access. */
  'no-access',
  /** A trial of a customer who came with an affiliate's code. */
  'referral',
] as const
export type SubscriptionStateName = (typeof SUBSCRIPTION_STATES)[number]

export const testSubscriptionBody = z.strictObject({
  state: z.enum(SUBSCRIPTION_STATES, `Must be one of ${SUBSCRIPTION_STATES.join(', ')}.`),
})
export type TestSubscriptionBody = z.input<typeof testSubscriptionBody>

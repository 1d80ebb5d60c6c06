/**
 * The subscription states the test routes put an account in (docs/architecture.md#testing-states), each
 * reached in one transaction by the steps the product itself takes: a first login's trial, its messages spent,
 * a paid checkout, the provider ending it, the operator's unlimited grant and its fair-use count, an affiliate's code kept at login. Every state
 * has the terms in force accepted.
 */
import { findPrice } from '../../core/constants/plans.ts'
import { TRIAL_MESSAGES, UNLIMITED_FAIR_USE_LIMIT } from '../../core/constants/limits.ts'
import type { SubscriptionStateName } from '../../core/contracts/testing.ts'
import type { Queryable, Store } from '../db/store.ts'
import { registerAffiliate } from './referrals.ts'
import {
  acceptLatestTerms,
  countUnlimitedSends,
  endProviderSubscription,
  grantUnlimited,
  keepReferralCodes,
  restartTrial,
  spendMessages,
  startPaidPlan,
} from './subscriptions.ts'

/** The price a `paid` account bought. */
export const TEST_PLAN_PRICE_ID = 'plan_starter_monthly'
/** The messages a `trial-60` account has left. */
export const TRIAL_LEFT = 60
/** The affiliate's code a `referral` account came with. */
export const TEST_REFERRAL_CODE = 'friend-15'

/** The provider's id of the account's subscription. */
const providerIdOf = (userId: string) => `sub_test_${userId}`

/** The Starter plan bought at checkout. */
async function buyStarter(db: Queryable, userId: string): Promise<void> {
  const match = findPrice(TEST_PLAN_PRICE_ID)
  if (match?.kind !== 'plan') throw new Error(`${TEST_PLAN_PRICE_ID} is not a plan`)
  await startPaidPlan(db, userId, {
    product: match.plan.title,
    priceId: TEST_PLAN_PRICE_ID,
    amount: match.plan.price,
    interval: match.interval,
    messages: match.plan.messages,
    providerSubscriptionId: providerIdOf(userId),
  })
}

const steps: Record<SubscriptionStateName, (db: Queryable, userId: string) => Promise<void>> = {
  'trial-full': async () => undefined,
  'trial-60': (db, userId) => spendMessages(db, userId, TRIAL_MESSAGES - TRIAL_LEFT),
  'none-left': (db, userId) => spendMessages(db, userId, TRIAL_MESSAGES),
  paid: (db, userId) => buyStarter(db, userId),
  unlimited: grantUnlimited,
  'unlimited-blocked': async (db, userId) => {
    await grantUnlimited(db, userId)
    await countUnlimitedSends(db, userId, UNLIMITED_FAIR_USE_LIMIT)
  },
  'no-access': async (db, userId) => {
    await buyStarter(db, userId)
    await endProviderSubscription(db, providerIdOf(userId))
  },
  referral: async (db, userId) => {
    await registerAffiliate(db, TEST_REFERRAL_CODE)
    await keepReferralCodes(db, userId, TEST_REFERRAL_CODE, null)
  },
}

/** Puts the user's subscription in `state`, starting from a first login's trial. */
export async function putSubscriptionState(
  store: Store,
  userId: string,
  state: SubscriptionStateName,
): Promise<void> {
  await store.transaction(async (tx) => {
    await restartTrial(tx, userId)
    await steps[state](tx, userId)
    await acceptLatestTerms(tx, userId)
  })
}

/** The subscription row and the client's view of it (docs/product-rules.md#records-and-their-fields). */
import { TRIAL_DAYS, TRIAL_MESSAGES, UNLIMITED_FAIR_USE_LIMIT } from '../../core/constants/limits.ts'
import type { MySubscription, SubscriptionState } from '../../core/contracts/api.ts'
import type { Queryable } from '../db/store.ts'
import { notFound } from '../http/errors.ts'

export interface SubscriptionRow {
  user_id: number
  facebook_id: string
  access: boolean
  access_type: 'trial' | 'paid' | null
  product: string
  price_id: string | null
  amount: number
  billing_interval: string | null
  current_period_end: Date | null
  cancel_at_period_end: boolean
  provider_subscription_id: string | null
  subscriptions_messages: number
  addons_messages: number
  is_unlimited: boolean
  unlimited_blocked: boolean
  use_branded_messages: boolean
  accepted_terms_id: number | null
  latest_terms_id: number | null
  referral: string | null
  coupon: string | null
  trial_page_id: string | null
  created_at: Date
}

const SELECT = `SELECT s.*, u.facebook_id, (SELECT max(id) FROM terms) AS latest_terms_id
  FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.user_id = $1`

/** The user's subscription row as one JSON value, for a statement that reads it beside other things. */
export const subscriptionJson = (userParam: string) =>
  `(SELECT row_to_json(x) FROM (${SELECT.replace('$1', userParam)}) x)`

export async function loadSubscription(db: Queryable, userId: string): Promise<SubscriptionRow> {
  const row = (await db.query<SubscriptionRow>(SELECT, [userId]))[0]
  if (!row) throw notFound('No subscription for this user.')
  return row
}

/** Access lasts until the end of the paid (or trial) period. */
export function hasAccess(row: SubscriptionRow, now = new Date()): boolean {
  return row.access && (row.current_period_end === null || new Date(row.current_period_end) > now)
}

export function isActivePaid(row: SubscriptionRow, now = new Date()): boolean {
  return row.access_type === 'paid' && hasAccess(row, now)
}

export function toState(row: SubscriptionRow): SubscriptionState {
  const subscriptions = Number(row.subscriptions_messages)
  const addons = Number(row.addons_messages)
  return {
    access: hasAccess(row),
    access_type: row.access_type,
    // Accepting is per version: a newer published text has to be accepted again.
    accepted_terms: row.accepted_terms_id !== null && row.accepted_terms_id === row.latest_terms_id,
    facebook_id: row.facebook_id,
    is_unlimited: row.is_unlimited,
    unlimited_blocked: row.unlimited_blocked,
    available_messages: subscriptions + addons,
    subscriptions_messages: subscriptions,
    addons_messages: addons,
    use_branded_messages: row.use_branded_messages,
    referral: row.referral,
    coupon: row.coupon,
  }
}

export function toMySubscription(row: SubscriptionRow): MySubscription {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : '')
  return {
    current_period_end: iso(row.current_period_end),
    cancel_at_period_end: row.cancel_at_period_end,
    product: row.product,
    amount: Number(row.amount),
    created: iso(row.created_at),
  }
}

export async function createTrial(
  db: Queryable,
  userId: string,
  referral?: string | null,
  coupon?: string | null,
): Promise<void> {
  await db.query(
    `INSERT INTO subscriptions (user_id, access, access_type, product, amount, subscriptions_messages, current_period_end, referral, coupon)
     VALUES ($1, true, 'trial', 'trial', 0, $2, now() + make_interval(days => $3::int), $4, $5)
     ON CONFLICT (user_id) DO NOTHING`,
    [userId, TRIAL_MESSAGES, TRIAL_DAYS, referral ?? null, coupon ?? null],
  )
}

/**
 * The subscription starts over as a first login's trial (`createTrial`): every trial message, no codes, no
 * page bound, no plan, the terms not yet accepted.
 */
export async function restartTrial(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM subscriptions WHERE user_id = $1', [userId])
  await createTrial(db, userId)
}

/**
 * Spends `count` messages as that many OK sends would (docs/product-rules.md#spending): subscription
 * messages first, then add-ons, never below zero.
 */
export async function spendMessages(db: Queryable, userId: string, count: number): Promise<void> {
  await db.query(
    `UPDATE subscriptions SET subscriptions_messages = GREATEST(subscriptions_messages - $2, 0),
       addons_messages = GREATEST(addons_messages - GREATEST($2 - subscriptions_messages, 0), 0)
     WHERE user_id = $1`,
    [userId, count],
  )
}

/**
 * An unlimited subscription, as the operator grants it, for a month: no messages of its own (nothing is
 * spent), its sends counted against fair use from zero.
 */
export async function grantUnlimited(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `UPDATE subscriptions SET access = true, access_type = 'paid', product = 'unlimited', amount = 0,
       subscriptions_messages = 0, is_unlimited = true, unlimited_blocked = false, unlimited_sent = 0,
       current_period_end = now() + interval '1 month'
     WHERE user_id = $1`,
    [userId],
  )
}

/**
 * Counts `count` sends of an unlimited subscription, as the touch does one by one: reaching the fair-use
 * limit blocks it (docs/product-rules.md#unlimited-and-fair-use).
 */
export async function countUnlimitedSends(db: Queryable, userId: string, count: number): Promise<void> {
  await db.query(
    `UPDATE subscriptions SET unlimited_sent = unlimited_sent + $2,
       unlimited_blocked = unlimited_blocked OR unlimited_sent + $2 >= $3::bigint
     WHERE user_id = $1 AND is_unlimited AND NOT unlimited_blocked`,
    [userId, count, UNLIMITED_FAIR_USE_LIMIT],
  )
}

/** Keeps the affiliate's codes a customer came with; a code already kept is not replaced. */
export async function keepReferralCodes(
  db: Queryable,
  userId: string,
  referral: string | null,
  coupon: string | null,
): Promise<void> {
  await db.query(
    'UPDATE subscriptions SET referral = COALESCE(referral, $2), coupon = COALESCE(coupon, $3) WHERE user_id = $1',
    [userId, referral, coupon],
  )
}

/** Forgets a kept code that turned out not to be an affiliate's. */
export async function forgetReferralCode(db: Queryable, userId: string, code: string): Promise<void> {
  await db.query(
    'UPDATE subscriptions SET referral = NULLIF(referral, $2), coupon = NULLIF(coupon, $2) WHERE user_id = $1',
    [userId, code],
  )
}

/** The customer agrees to send branded messages when nothing else is left. */
export async function allowBrandedMessages(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE subscriptions SET use_branded_messages = true WHERE user_id = $1', [userId])
}

/** The customer accepts the terms in force. */
export async function acceptLatestTerms(db: Queryable, userId: string): Promise<void> {
  await db.query(
    'UPDATE subscriptions SET accepted_terms_id = (SELECT max(id) FROM terms) WHERE user_id = $1',
    [userId],
  )
}

/** The paid subscription ends at the end of its period, for the reason the customer gave. */
export async function cancelAtPeriodEnd(db: Queryable, userId: string, reason: string): Promise<void> {
  await db.query(
    'UPDATE subscriptions SET cancel_at_period_end = true, cancellation_reason = $2 WHERE user_id = $1',
    [userId, reason],
  )
}

/** The page a trial customer first used: kept once, so the trial stays bound to it. */
export async function keepTrialPage(db: Queryable, userId: string, pageId: string): Promise<void> {
  await db.query('UPDATE subscriptions SET trial_page_id = COALESCE(trial_page_id, $2) WHERE user_id = $1', [
    userId,
    pageId,
  ])
}

/** A bought messages package: its messages are added, and a fair-use block is lifted. */
export async function addAddonMessages(
  db: Queryable,
  userId: string | number,
  messages: number,
): Promise<void> {
  await db.query(
    'UPDATE subscriptions SET addons_messages = addons_messages + $2, unlimited_blocked = false WHERE user_id = $1',
    [userId, messages],
  )
}

export interface PaidPlan {
  product: string
  priceId: string
  amount: number
  interval: string
  messages: number
  /** The provider's subscription id; a known one is kept when the event names none. */
  providerSubscriptionId: string | null
}

/** A paid plan starts now for one period (a month or a year) with its messages. */
export async function startPaidPlan(db: Queryable, userId: string | number, plan: PaidPlan): Promise<void> {
  await db.query(
    `UPDATE subscriptions SET access = true, access_type = 'paid', product = $2, price_id = $3, amount = $4,
       billing_interval = $5, subscriptions_messages = $6,
       current_period_end = now() + CASE WHEN $5 = 'year' THEN interval '1 year' ELSE interval '1 month' END,
       cancel_at_period_end = false, cancellation_reason = NULL, unlimited_sent = 0,
       provider_subscription_id = COALESCE($7, provider_subscription_id)
     WHERE user_id = $1`,
    [
      userId,
      plan.product,
      plan.priceId,
      plan.amount,
      plan.interval,
      plan.messages,
      plan.providerSubscriptionId,
    ],
  )
}

/** The customer and price of the provider's subscription, or undefined when no customer has it. */
export async function subscriptionOfProvider(
  db: Queryable,
  providerSubscriptionId: string,
): Promise<{ user_id: number; price_id: string | null } | undefined> {
  const [row] = await db.query<{ user_id: number; price_id: string | null }>(
    'SELECT user_id, price_id FROM subscriptions WHERE provider_subscription_id = $1',
    [providerSubscriptionId],
  )
  return row
}

/** A paid renewal: the plan's messages are refilled and the period moves on by one (a month or a year). */
export async function renewPlan(
  db: Queryable,
  userId: string | number,
  messages: number,
  interval: string,
): Promise<void> {
  await db.query(
    `UPDATE subscriptions SET subscriptions_messages = $2, unlimited_sent = 0, access = true,
       current_period_end = GREATEST(COALESCE(current_period_end, now()), now())
         + CASE WHEN $3 = 'year' THEN interval '1 year' ELSE interval '1 month' END
     WHERE user_id = $1`,
    [userId, messages, interval],
  )
}

/** The provider ended the subscription: its customer's access ends. */
export async function endProviderSubscription(db: Queryable, providerSubscriptionId: string): Promise<void> {
  await db.query('UPDATE subscriptions SET access = false WHERE provider_subscription_id = $1', [
    providerSubscriptionId,
  ])
}

export async function subscriptionState(db: Queryable, userId: string): Promise<SubscriptionState> {
  return toState(await loadSubscription(db, userId))
}

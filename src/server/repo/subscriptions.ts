/** The subscription row and the client's view of it (docs/product-rules.md#records-and-their-fields). */
import { TRIAL_DAYS, TRIAL_MESSAGES } from '../../shared/constants/limits.ts'
import type { MySubscription, SubscriptionState } from '../../shared/contracts/api.ts'
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

export async function subscriptionState(db: Queryable, userId: string): Promise<SubscriptionState> {
  return toState(await loadSubscription(db, userId))
}

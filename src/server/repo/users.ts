/**
 * The `users` table: one row per network account that logged in. A login writes the user, their trial, the
 * affiliate's code they came with and their session in one transaction.
 */
import type { SubscriptionState } from '../../core/contracts/api.ts'
import type { Queryable, Store } from '../db/store.ts'
import { isReferralFor } from './referrals.ts'
import { deleteExpiredSessions, openSession } from './sessions.ts'
import { createTrial, keepReferralCodes, subscriptionState } from './subscriptions.ts'

export interface UserRow {
  id: number
  facebook_id: string
  name: string
  email: string | null
}

/** The profile the network answered for the token of a login. */
export interface NetworkProfile {
  facebookId: string
  name: string
  email: string | null
  pictureUrl: string | null
}

/** Creates the user of a network account, or brings their name, email and picture up to date. */
export async function upsertUser(db: Queryable, profile: NetworkProfile): Promise<UserRow> {
  const [row] = await db.query<UserRow>(
    `INSERT INTO users (facebook_id, name, email, picture_url) VALUES ($1, $2, $3, $4)
     ON CONFLICT (facebook_id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email, picture_url = EXCLUDED.picture_url
     RETURNING id, facebook_id, name, email`,
    [profile.facebookId, profile.name, profile.email, profile.pictureUrl],
  )
  return row!
}

export interface LoginInput {
  profile: NetworkProfile
  referral?: string | null | undefined
  coupon?: string | null | undefined
  /** Sessions unused for this long are deleted. */
  idleDays: number
  userAgent?: string | undefined
  /** The bearer the device already holds, kept when it is this user's. */
  current?: string | undefined
}

/**
 * Logs the account in, in one transaction: the user is written, their trial created on the first login, an
 * affiliate's code (not the user's own) kept from the first time it is seen (a later login cannot replace
 * it), expired sessions deleted and the device's session opened. Answers the session's token.
 */
export async function logIn(
  store: Store,
  input: LoginInput,
): Promise<{ token: string; user: UserRow; subscription: SubscriptionState }> {
  return store.transaction(async (tx) => {
    const user = await upsertUser(tx, input.profile)
    const userId = String(user.id)
    const code = async (c: string | null | undefined) =>
      c && (await isReferralFor(tx, c, user.facebook_id)) ? c : null
    const [referral, coupon] = [await code(input.referral), await code(input.coupon)]
    await createTrial(tx, userId, referral, coupon)
    await keepReferralCodes(tx, userId, referral, coupon)
    await deleteExpiredSessions(tx, input.idleDays)
    const token = await openSession(tx, userId, input.userAgent, input.current)
    return { token, user, subscription: await subscriptionState(tx, userId) }
  })
}

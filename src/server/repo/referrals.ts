/** The affiliates' referral codes (`affiliates`) and the one referral discount each customer gets. */
import type { Queryable } from '../db/store.ts'

/** Whether `code` is an affiliate's code that the network account `facebookId` may be referred by. */
export async function isReferralFor(db: Queryable, code: string, facebookId: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM affiliates WHERE code = $1 AND (facebook_id IS NULL OR facebook_id <> $2)',
    [code, facebookId],
  )
  return rows.length > 0
}

/** Whether the customer has already bought something with a referral discount. */
export async function referralUsed(db: Queryable, userId: string | number): Promise<boolean> {
  return (await db.query('SELECT 1 FROM referral_uses WHERE user_id = $1', [userId])).length > 0
}

/** Records the customer's referral discount as used by this paid checkout (the first one counts). */
export async function recordReferralUse(
  db: Queryable,
  userId: string | number,
  code: string,
  sessionId: string,
): Promise<void> {
  await db.query(
    `INSERT INTO referral_uses (user_id, code, checkout_session_id) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO NOTHING`,
    [userId, code, sessionId],
  )
}

/** An affiliate's code, as the affiliate portal registers it (a code already known is kept as it is). */
export async function registerAffiliate(db: Queryable, code: string): Promise<void> {
  await db.query('INSERT INTO affiliates (code) VALUES ($1) ON CONFLICT (code) DO NOTHING', [code])
}

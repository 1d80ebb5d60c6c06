/** Push subscriptions (one per device, keyed by the push service's endpoint) and notification settings. */
import type { Queryable } from '../db/store.ts'

export interface PushSubscriptionRow {
  endpoint: string
  user_id: string
  p256dh: string
  auth: string
  locale: string
}

export interface SavedSubscription {
  endpoint: string
  p256dh: string
  auth: string
  device: string | null
  locale: string
}

/**
 * Stores the device's subscription for the user; false, with nothing changed, when another account holds
 * the endpoint (it is never moved: the holder removes it, or loses it when its session ends). The endpoint
 * is the key. The session's earlier endpoint (the browser made a new subscription) is replaced, so a device
 * is one subscription.
 */
export async function saveSubscription(
  db: Queryable,
  userId: string,
  sessionId: string | null,
  sub: SavedSubscription,
): Promise<boolean> {
  const saved = await db.query(
    `INSERT INTO push_subscriptions (endpoint, user_id, session_id, p256dh, auth, device, locale)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (endpoint) DO UPDATE SET session_id = EXCLUDED.session_id, p256dh = EXCLUDED.p256dh,
       auth = EXCLUDED.auth, device = EXCLUDED.device, locale = EXCLUDED.locale, updated_at = now()
       WHERE push_subscriptions.user_id = EXCLUDED.user_id
     RETURNING endpoint`,
    [sub.endpoint, userId, sessionId, sub.p256dh, sub.auth, sub.device, sub.locale],
  )
  if (saved.length === 0) return false
  if (sessionId !== null)
    await db.query('DELETE FROM push_subscriptions WHERE session_id = $1 AND endpoint <> $2', [
      sessionId,
      sub.endpoint,
    ])
  return true
}

/** Removes one of the user's subscriptions; true when there was one. */
export async function deleteSubscription(db: Queryable, userId: string, endpoint: string): Promise<boolean> {
  const rows = await db.query(
    'DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2 RETURNING endpoint',
    [userId, endpoint],
  )
  return rows.length > 0
}

/** A subscription the push service no longer knows (404/410). */
export async function forgetEndpoint(db: Queryable, endpoint: string): Promise<void> {
  await db.query('DELETE FROM push_subscriptions WHERE endpoint = $1', [endpoint])
}

export async function subscriptionsOf(db: Queryable, userId: string): Promise<PushSubscriptionRow[]> {
  return db.query<PushSubscriptionRow>(
    'SELECT endpoint, user_id::text AS user_id, p256dh, auth, locale FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at',
    [userId],
  )
}

/** The subscriptions of each of the given users who has any, oldest first. */
export async function subscriptionsOfUsers(
  db: Queryable,
  userIds: readonly string[],
): Promise<Map<string, PushSubscriptionRow[]>> {
  const rows = await db.query<PushSubscriptionRow>(
    `SELECT endpoint, user_id::text AS user_id, p256dh, auth, locale FROM push_subscriptions
      WHERE user_id = ANY($1::bigint[]) ORDER BY created_at`,
    [userIds.map(Number)],
  )
  const byUser = new Map<string, PushSubscriptionRow[]>()
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row])
  return byUser
}

export async function hasSubscription(db: Queryable, userId: string, endpoint: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2', [
    userId,
    endpoint,
  ])
  return rows.length > 0
}

export async function hideTextOf(db: Queryable, userId: string): Promise<boolean> {
  const rows = await db.query<{ hide_text: boolean }>(
    'SELECT hide_text FROM push_settings WHERE user_id = $1',
    [userId],
  )
  return rows[0]?.hide_text ?? false
}

export async function setHideText(db: Queryable, userId: string, hideText: boolean): Promise<void> {
  await db.query(
    `INSERT INTO push_settings (user_id, hide_text) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET hide_text = EXCLUDED.hide_text`,
    [userId, hideText],
  )
}

/**
 * A user's binding to a page (`user_pages`): made when the network vouches for the user's page token
 * (routes/page-access.ts), checked again later, and revoked when the network says the user no longer manages the
 * page. A revoked binding refuses the user's calls on the page, hears none of its events and pushes, and its
 * server-held and scheduled jobs stop with a reason; opening the page again with a valid token binds it anew.
 */
import type { Queryable, Store } from '../db/store.ts'
import { dropTokens } from './message-page-tokens.ts'
import { serverJobsOfPage, stopScheduledOfPage } from './messages.ts'
import { dropPageEvents, publishToUsers } from './owner-events.ts'

/** The stop reason of a job whose page the owner no longer manages (shown on its card). */
export const PAGE_ACCESS_REVOKED = 'page_access_revoked'

/** How a revocation was learnt: a token check with the network, or the network's notice of a removed app. */
export type RevokeReason = 'role_lost' | 'app_removed'

export type BindingState = 'bound' | 'revoked' | 'none'

/** What a check of a binding with the network found. */
export type BindingVerdict =
  /** The token is valid, of this app, for the page and issued to the user: the binding stands. */
  | 'holds'
  /** The network refuses the token for a reason other than an expired session (a lost role): revoked. */
  | 'revoked'
  /** The token's session ended (expired, password changed, logged out): it says nothing about the role. */
  | 'token_dead'
  /** Nothing to judge by: no token, the network unreachable, or a token of another page or user. */
  | 'unknown'

export async function bindingState(db: Queryable, userId: string, pageId: string): Promise<BindingState> {
  const [row] = await db.query<{ revoked: boolean }>(
    'SELECT revoked_at IS NOT NULL AS revoked FROM user_pages WHERE user_id = $1 AND page_id = $2',
    [userId, pageId],
  )
  if (!row) return 'none'
  return row.revoked ? 'revoked' : 'bound'
}

/** The binding as its check with the network needs it: the sealed token, whether revoked, the user's account. */
export async function bindingForCheck(
  db: Queryable,
  userId: string,
  pageId: string,
): Promise<{ sealed: Uint8Array | null; revoked: boolean; facebook_id: string } | undefined> {
  const [row] = await db.query<{ sealed: Uint8Array | null; revoked: boolean; facebook_id: string }>(
    `SELECT up.sealed_token AS sealed, up.revoked_at IS NOT NULL AS revoked, u.facebook_id
       FROM user_pages up JOIN users u ON u.id = up.user_id WHERE up.user_id = $1 AND up.page_id = $2`,
    [userId, pageId],
  )
  return row
}

/** Records that the network vouched for the binding now. */
export async function markBindingChecked(db: Queryable, userId: string, pageId: string): Promise<void> {
  await db.query('UPDATE user_pages SET checked_at = now() WHERE user_id = $1 AND page_id = $2', [
    userId,
    pageId,
  ])
}

/** Forgets the binding's token, which can vouch for nothing more (the next entry to the page stores a fresh one). */
export async function forgetBindingToken(db: Queryable, userId: string, pageId: string): Promise<void> {
  await db.query(
    'UPDATE user_pages SET sealed_token = NULL WHERE user_id = $1 AND page_id = $2 AND revoked_at IS NULL',
    [userId, pageId],
  )
}

/** The bindings in force of the network account `facebookId`. */
export async function accountBindings(
  db: Queryable,
  facebookId: string,
): Promise<{ user_id: string; page_id: string }[]> {
  return db.query<{ user_id: string; page_id: string }>(
    `SELECT up.user_id::text AS user_id, up.page_id FROM user_pages up JOIN users u ON u.id = up.user_id
      WHERE u.facebook_id = $1 AND up.revoked_at IS NULL`,
    [facebookId],
  )
}

/** Of the given users, those whose binding to the page is revoked. */
export async function revokedUsers(
  db: Queryable,
  pageId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  const rows = await db.query<{ user_id: string }>(
    `SELECT user_id::text FROM user_pages
      WHERE page_id = $1 AND user_id = ANY($2::bigint[]) AND revoked_at IS NOT NULL`,
    [pageId, userIds.map(Number)],
  )
  return new Set(rows.map((r) => r.user_id))
}

/** Binds (or binds again) the page to the user with the page token the network just vouched for. */
export async function bindPage(
  db: Queryable,
  userId: string,
  pageId: string,
  sealed: Uint8Array,
): Promise<void> {
  await db.query(
    `INSERT INTO user_pages (user_id, page_id, sealed_token, checked_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (user_id, page_id) DO UPDATE SET sealed_token = EXCLUDED.sealed_token, checked_at = now(),
         revoked_at = NULL, revoked_reason = NULL`,
    [userId, pageId, sealed],
  )
}

/**
 * Ends the binding, in one transaction: the user's undelivered and kept events of the page are deleted (an open
 * or resuming stream gets none of them), the user's scheduled sends on the page stop, and the user's apps hear
 * `page_access_lost`. Answers the ids of the user's server-held jobs on the page, for the server sender to
 * stop with a reason (their sends in flight settle first), or undefined when the binding was not in force.
 */
export async function revokeBinding(
  store: Store,
  userId: string,
  pageId: string,
  reason: RevokeReason,
): Promise<string[] | undefined> {
  return store.transaction(async (tx) => {
    const ended = await tx.query(
      `UPDATE user_pages SET revoked_at = now(), revoked_reason = $3, sealed_token = NULL
        WHERE user_id = $1 AND page_id = $2 AND revoked_at IS NULL RETURNING 1`,
      [userId, pageId, reason],
    )
    if (ended.length === 0) return undefined
    // A job's progress stays: it is the owner's own record of a send, not the page's news.
    await dropPageEvents(tx, userId, pageId)
    const scheduled = await stopScheduledOfPage(tx, userId, pageId, PAGE_ACCESS_REVOKED)
    if (scheduled.length > 0) await dropTokens(tx, scheduled)
    await publishToUsers(tx, [userId], 'page_access_lost', { pageId, reason })
    return serverJobsOfPage(tx, userId, pageId)
  })
}

/**
 * Takes up to `limit` bindings in force whose last check is older than `minutes` for a scheduled check: their
 * check time moves to now in the same statement, so another instance sweeping at once takes others.
 */
export async function takeDueBindings(
  db: Queryable,
  minutes: number,
  limit: number,
): Promise<{ userId: string; pageId: string }[]> {
  const rows = await db.query<{ user_id: string; page_id: string }>(
    `UPDATE user_pages SET checked_at = now()
      WHERE (user_id, page_id) IN (
        SELECT user_id, page_id FROM user_pages
         WHERE revoked_at IS NULL AND sealed_token IS NOT NULL
           AND checked_at < now() - make_interval(mins => $1)
         ORDER BY checked_at LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING user_id::text, page_id`,
    [minutes, limit],
  )
  return rows.map((r) => ({ userId: r.user_id, pageId: r.page_id }))
}

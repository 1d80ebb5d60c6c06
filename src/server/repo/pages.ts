/**
 * The `pages` table: each page opened in the product, with its ban, its trial and whether it is subscribed
 * to the app's webhooks.
 */
import type { PageStanding } from '../../core/contracts/api.ts'
import type { PageWebhooks } from '../../core/contracts/events.ts'
import type { Queryable, Store } from '../db/store.ts'
import { publishToPage } from './owner-events.ts'
import { bindPage } from './page-bindings.ts'
import { keepTrialPage, loadSubscription, type SubscriptionRow } from './subscriptions.ts'

export interface PageDetails {
  id: string
  name: string
  category?: string | null | undefined
  picture?: string | null | undefined
  fan_count?: number | null | undefined
}

/** Creates the page or brings its details up to date; answers whether it is banned. */
export async function upsertPage(db: Queryable, page: PageDetails): Promise<{ banned: boolean }> {
  const [row] = await db.query<{ banned: boolean }>(
    `INSERT INTO pages (id, name, category, picture, fan_count) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, category = EXCLUDED.category,
       picture = EXCLUDED.picture, fan_count = EXCLUDED.fan_count, updated_at = now()
     RETURNING banned`,
    [page.id, page.name, page.category ?? null, page.picture ?? null, page.fan_count ?? null],
  )
  return row!
}

/**
 * Takes the page for the user's trial: answers false when another user's trial has it. One statement decides,
 * so two trial users opening the page at once cannot both take it.
 */
export async function takePageForTrial(db: Queryable, pageId: string, userId: string): Promise<boolean> {
  const bound = await db.query(
    `UPDATE pages SET trial_used = true, trial_user_id = $2
     WHERE id = $1 AND (NOT trial_used OR trial_user_id = $2) RETURNING id`,
    [pageId, userId],
  )
  return bound.length > 0
}

/**
 * Registers the page for the user in one transaction: its details are stored; a banned page goes no further;
 * a trial user takes it for the trial unless another trial has it; then the page is bound to the user with the
 * sealed page token the network just vouched for (bound again even after a revocation). Answers the user's
 * subscription after it.
 */
export async function registerPage(
  store: Store,
  userId: string,
  page: PageDetails,
  sealedToken: Uint8Array,
): Promise<SubscriptionRow | 'banned' | 'trial_used'> {
  return store.transaction(async (tx) => {
    if ((await upsertPage(tx, page)).banned) return 'banned' as const
    const sub = await loadSubscription(tx, userId)
    if (sub.access_type === 'trial') {
      if (!(await takePageForTrial(tx, page.id, userId))) return 'trial_used' as const
      await keepTrialPage(tx, userId, page.id)
    }
    await bindPage(tx, userId, page.id, sealedToken)
    return loadSubscription(tx, userId)
  })
}

/** The page's name, as last stored. */
export async function pageName(db: Queryable, pageId: string): Promise<string | null> {
  const [page] = await db.query<{ name: string | null }>('SELECT name FROM pages WHERE id = $1', [pageId])
  return page?.name ?? null
}

/** Whether the page is banned (an unknown page is not). */
export async function pageBanned(db: Queryable, pageId: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM pages WHERE id = $1 AND banned', [pageId])).length > 0
}

/**
 * Of the given pages, those the user cannot use: banned ones, and those whose binding to the user was revoked
 * (a page may be listed with both).
 */
export async function pageStandings(
  db: Queryable,
  userId: string,
  pageIds: readonly string[],
): Promise<{ id: string; standing: PageStanding }[]> {
  return db.query<{ id: string; standing: PageStanding }>(
    `SELECT id, 'banned' AS standing FROM pages WHERE id = ANY($1::text[]) AND banned
     UNION ALL
     SELECT page_id AS id, 'revoked' AS standing FROM user_pages
      WHERE user_id = $2 AND page_id = ANY($1::text[]) AND revoked_at IS NOT NULL`,
    [pageIds, userId],
  )
}

/** The page's last known webhook subscription; `fresh` when checked within `hours`. */
export async function webhookSubscription(
  db: Queryable,
  pageId: string,
  hours: number,
): Promise<{ ok: boolean | null; error: string | null; fresh: boolean } | undefined> {
  const [row] = await db.query<{ ok: boolean | null; error: string | null; fresh: boolean }>(
    `SELECT webhooks_ok AS ok, webhooks_error AS error,
       COALESCE(webhooks_checked_at > now() - make_interval(hours => $2), false) AS fresh
     FROM pages WHERE id = $1`,
    [pageId, hours],
  )
  return row
}

/** Keeps the result of subscribing the page to the webhooks and tells the page's owners' apps. */
export async function recordWebhookSubscription(
  store: Store,
  pageId: string,
  result: PageWebhooks,
): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.query(
      'UPDATE pages SET webhooks_ok = $2, webhooks_error = $3, webhooks_checked_at = now() WHERE id = $1',
      [pageId, result.ok, result.error ?? null],
    )
    await publishToPage(tx, pageId, 'page_subscription', { pageId, ...result })
  })
}

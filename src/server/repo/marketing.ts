/**
 * Marketing messages' server records (migration 008): the pages that turned them on, their subscribers
 * (tokens sealed with the TokenBox) and the opt-in requests sent (the network's one-per-title-per-week limit).
 */
import type { TokenBox } from '../bulk/token-box.ts'
import type { Queryable } from '../db/store.ts'

export interface MarketingPageRow {
  page_id: string
  user_id: string
  ad_account_id: string | null
  ad_account_name: string | null
  currency: string | null
  country: string | null
  enabled: boolean
}

/** The subscriber's token now; null when they stopped, their token expired, or they never subscribed. */
export async function activeSubscriberToken(
  store: Queryable,
  box: TokenBox,
  pageId: string,
  psid: string,
): Promise<string | null> {
  const row = (
    await store.query<{ token: Uint8Array }>(
      `SELECT token FROM marketing_subscribers
        WHERE page_id = $1 AND psid = $2 AND status = 'active' AND (expires_at IS NULL OR expires_at > now())`,
      [pageId, psid],
    )
  )[0]
  return row ? box.open(row.token) : null
}

export async function marketingPage(store: Queryable, pageId: string): Promise<MarketingPageRow | null> {
  return (
    (
      await store.query<MarketingPageRow>(
        `SELECT page_id, user_id::text AS user_id, ad_account_id, ad_account_name, currency, country, enabled
           FROM marketing_pages WHERE page_id = $1`,
        [pageId],
      )
    )[0] ?? null
  )
}

/** Records opt-in requests sent now (the weekly limit counts from the newest). */
export async function recordOptInRequests(
  store: Queryable,
  pageId: string,
  psids: string[],
  title: string,
  at: Date,
): Promise<void> {
  await store.query(
    `INSERT INTO optin_requests (page_id, psid, title, sent_at) SELECT $1, p, $3, $4 FROM unnest($2::text[]) AS p
       ON CONFLICT (page_id, psid, title) DO UPDATE SET sent_at = EXCLUDED.sent_at`,
    [pageId, psids, title, at],
  )
}

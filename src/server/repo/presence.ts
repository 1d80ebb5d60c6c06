/**
 * Which of an owner's app tabs are visible (`tab_presence`), as the app reports it (`POST /api/v2/presence`
 * on every visibility change and every 60 s while visible). Push notifications go out only when none is.
 */
import type { Queryable } from '../db/store.ts'

/** A report older than this no longer counts: the tab was closed, crashed or lost its connection. */
export const PRESENCE_FRESH_SECONDS = 90

export async function reportPresence(
  db: Queryable,
  userId: string,
  tab: string,
  visible: boolean,
): Promise<void> {
  await db.query(
    `INSERT INTO tab_presence (tab, user_id, visible, seen_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (tab) DO UPDATE SET user_id = EXCLUDED.user_id, visible = EXCLUDED.visible, seen_at = now()`,
    [tab, userId, visible],
  )
}

/** The tab's event stream ended: it is not shown any more (its next report says otherwise if it is). */
export async function tabGone(db: Queryable, userId: string, tab: string): Promise<void> {
  await db.query('UPDATE tab_presence SET visible = false WHERE tab = $1 AND user_id = $2', [tab, userId])
}

/** Whether any tab of the user is visible now (reported visible within the last 90 s). */
export async function anyVisibleTab(store: Queryable, userId: string): Promise<boolean> {
  const rows = await store.query(
    `SELECT 1 FROM tab_presence WHERE user_id = $1 AND visible
       AND seen_at > now() - make_interval(secs => $2) LIMIT 1`,
    [userId, PRESENCE_FRESH_SECONDS],
  )
  return rows.length > 0
}

/** Reports older than a day are of tabs long gone. */
export async function prunePresence(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM tab_presence WHERE seen_at < now() - interval '1 day'`)
}

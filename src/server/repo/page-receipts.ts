/** The `page_receipts` table: how far each customer of a page has received and read the page's messages. */
import type { Queryable } from '../db/store.ts'

export type Receipt = 'delivered' | 'read'

/**
 * A bulk recipient's send time is when the app recorded it, a moment after the network stamped the message:
 * a watermark up to this long before it still covers it.
 */
export const SEND_RECORD_SLACK_S = 30

/** Moves the watermark forward; answers whether it moved (a repeat or an older one changes nothing). */
export async function advanceWatermark(
  db: Queryable,
  pageId: string,
  customerId: string,
  kind: Receipt,
  at: string,
): Promise<boolean> {
  const column = kind === 'delivered' ? 'delivered_watermark' : 'read_watermark'
  const rows = await db.query(
    `INSERT INTO page_receipts (page_id, customer_id, ${column}) VALUES ($1, $2, $3)
     ON CONFLICT (page_id, customer_id) DO UPDATE SET ${column} = EXCLUDED.${column}, updated_at = now()
       WHERE page_receipts.${column} IS NULL OR page_receipts.${column} < EXCLUDED.${column}
     RETURNING 1`,
    [pageId, customerId, at],
  )
  return rows.length > 0
}

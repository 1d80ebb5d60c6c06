/**
 * The `page_messages` table: the messages of a page's conversations heard through the webhooks, by (page,
 * mid), so a message heard twice is stored once.
 */
import type { Queryable } from '../db/store.ts'

export interface PageMessageInput {
  pageId: string
  mid: string
  customerId: string
  fromPage: boolean
  text: string | null
  attachments: readonly { type: string; url: string | null }[]
  createdTime: string
}

/** Stores the message; answers false when it was stored before. */
export async function insertPageMessage(db: Queryable, m: PageMessageInput): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO page_messages (page_id, mid, customer_id, from_page, text, attachments, created_time)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7) ON CONFLICT (page_id, mid) DO NOTHING RETURNING mid`,
    [m.pageId, m.mid, m.customerId, m.fromPage, m.text, JSON.stringify(m.attachments), m.createdTime],
  )
  return inserted.length > 0
}

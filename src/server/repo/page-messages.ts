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

/**
 * Stores the messages in one statement; answers for each whether it is new (stored before, or earlier in the
 * list, it is not).
 */
export async function insertPageMessages(db: Queryable, ms: readonly PageMessageInput[]): Promise<boolean[]> {
  const key = (pageId: string, mid: string) => `${pageId}\u0000${mid}`
  const first = new Map<string, number>()
  ms.forEach((m, i) => void (first.has(key(m.pageId, m.mid)) || first.set(key(m.pageId, m.mid), i)))
  if (first.size === 0) return []
  const rows = [...first.values()].map((i) => ms[i]!)
  const inserted = await db.query<{ page_id: string; mid: string }>(
    `INSERT INTO page_messages (page_id, mid, customer_id, from_page, text, attachments, created_time)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::jsonb[],
         $7::timestamptz[])
     ON CONFLICT (page_id, mid) DO NOTHING RETURNING page_id, mid`,
    [
      rows.map((m) => m.pageId),
      rows.map((m) => m.mid),
      rows.map((m) => m.customerId),
      rows.map((m) => m.fromPage),
      rows.map((m) => m.text),
      rows.map((m) => JSON.stringify(m.attachments)),
      rows.map((m) => m.createdTime),
    ],
  )
  const fresh = new Set(inserted.map((r) => key(r.page_id, r.mid)))
  return ms.map((m, i) => first.get(key(m.pageId, m.mid)) === i && fresh.has(key(m.pageId, m.mid)))
}

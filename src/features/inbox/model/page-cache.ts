/** What the sidebar shows of a page, kept so the inbox reads offline after a reload (never the token). */
import { db, type PageSummary } from '../../../device/db/db.ts'
import type { Account } from '../../../core/graph/types.ts'

// Added in the inbox's schema version 10 (src/device/db/db.ts).
const pages = () => db.inboxPages

export function summaryOf(account: Account): PageSummary {
  return {
    id: account.id,
    name: account.name,
    category: account.category,
    pictureUrl: account.picture?.data.url,
  }
}

export async function rememberPage(account: Account): Promise<PageSummary> {
  const summary = summaryOf(account)
  await pages().put(summary)
  return summary
}

export function recallPage(pageId: string): Promise<PageSummary | undefined> {
  return pages().get(pageId)
}

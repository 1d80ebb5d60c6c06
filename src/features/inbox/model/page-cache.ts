/** What the sidebar shows of a page, kept so the inbox reads offline after a reload (never the token). */
import { db } from '../../../shared/db/db.ts'
import type { Account } from '../../../shared/graph/types.ts'
import type { PageSummary } from '../components/page-sidebar.tsx'

// Added in the inbox's schema version 10 (src/shared/db/db.ts).
const pages = () => db.table<PageSummary, string>('inboxPages')

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

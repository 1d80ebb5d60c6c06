/** The receipts of one customer of a page, read live from the local database (the stream writes them). */
import { useLiveQuery } from 'dexie-react-hooks'
import { db } from '../../device/db/db.ts'
import type { Watermarks } from './receipts.ts'

export function receiptsKey(pageId: string, customerId: string): string {
  return `${pageId}:${customerId}`
}

export function useReceipts(pageId: string, customerId: string): Watermarks | undefined {
  return useLiveQuery(async () => {
    const row = await db.receipts.get(receiptsKey(pageId, customerId))
    return row ? { delivered: row.delivered, read: row.read } : undefined
  }, [pageId, customerId])
}

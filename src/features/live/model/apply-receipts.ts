/** Delivery and read watermarks, and bulk messages' counts, into the local database. */
import { db } from '../../../device/db/db.ts'
import { advanceWatermarks, type Watermarks } from '../../../shared/live/receipts.ts'
import { receiptsKey } from '../../../shared/live/use-receipts.ts'

export async function applyWatermark(
  pageId: string,
  customerId: string,
  kind: 'delivered' | 'read',
  watermark: string,
): Promise<Watermarks> {
  const key = receiptsKey(pageId, customerId)
  return db.transaction('rw', db.receipts, async () => {
    const current = await db.receipts.get(key)
    const marks = advanceWatermarks(current, { [kind]: Date.parse(watermark) })
    await db.receipts.put({ key, pageId, customerId, ...marks })
    return marks
  })
}

/** Counts only grow: a late event never lowers what a newer one said. */
export async function applyBulkReceipts(
  pageId: string,
  messageId: string,
  delivered: number,
  read: number,
): Promise<void> {
  await db.transaction('rw', db.bulkReceipts, async () => {
    const current = await db.bulkReceipts.get(messageId)
    await db.bulkReceipts.put({
      id: messageId,
      pageId,
      delivered: Math.max(current?.delivered ?? 0, delivered, read),
      read: Math.max(current?.read ?? 0, read),
    })
  })
}

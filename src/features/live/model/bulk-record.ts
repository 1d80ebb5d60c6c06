/**
 * The delivered and read counts the server keeps on each bulk message's record, read once the stream is
 * open (and again after a gap): a card shows the counts even of receipts that came while the app was closed.
 * A job the server holds takes its sent, rejected and skipped counts (and its end) from the record too, so
 * its card is right before the server's next progress event. Only when this device holds bulk jobs, so an
 * owner who never sent one costs no call.
 */
import { silentApi } from '../../../shared/api/client.ts'
import { messagesList } from '../../../core/contracts/api.ts'
import { db } from '../../../device/db/db.ts'
import { applyServerProgress } from './apply-progress.ts'
import { applyBulkReceipts } from './apply-receipts.ts'

export async function loadBulkReceipts(): Promise<void> {
  const local = await db.bulkJobs.toCollection().primaryKeys()
  if (local.length === 0) return
  const parsed = messagesList.safeParse(await silentApi('/messages?state=all'))
  if (!parsed.success) return
  const mine = new Set(local)
  for (const m of parsed.data.data) {
    if (!mine.has(m.id)) continue
    if (m.delivered_count > 0 || m.read_count > 0)
      await applyBulkReceipts(m.page_id, m.id, m.delivered_count, m.read_count)
    if (m.sender === 'server' || m.state === 'finished' || m.state === 'stopped')
      await applyServerProgress(m.id, {
        sent: m.ok_count,
        rejected: m.ng_count,
        skipped: m.skipped_count,
        total: m.total_messages,
        state: m.state === 'finished' || m.state === 'stopped' ? m.state : 'open',
        stopReason: m.stop_reason,
        lease: m.lease,
      })
  }
}

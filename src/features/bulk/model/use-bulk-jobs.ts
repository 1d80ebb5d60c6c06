/** The jobs for the cards: Dexie liveQuery is the truth; progress events on the channel make it instant. */
import { useEffect, useState } from 'react'
import { useLiveQuery } from 'dexie-react-hooks'
import { jobs } from '../../../device/bulk/records.ts'
import { db } from '../../../device/db/db.ts'
import { broadcastChannel, type BulkMessage } from '../../../device/bulk/protocol.ts'
import { overlay, type CardJob } from './card.ts'

type Progress = Extract<BulkMessage, { type: 'progress' }>

export function useBulkJobs(): CardJob[] {
  const list = useLiveQuery(() => jobs.orderBy('createdAt').reverse().toArray(), [], [])
  // Delivered and read counts come from the live stream's receipts, kept apart from the sender's rows.
  const receipts = useLiveQuery(() => db.bulkReceipts.toArray(), [], [])
  const receiptsById = new Map(receipts.map((r) => [r.id, r]))
  const [events, setEvents] = useState<Record<string, Progress>>({})
  useEffect(() => {
    const channel = broadcastChannel()
    const off = channel.subscribe((m) => {
      if (m.type === 'progress') setEvents((prev) => ({ ...prev, [m.jobId]: m }))
    })
    return () => {
      off()
      channel.close()
    }
  }, [])
  return list.map((j) => {
    const r = receiptsById.get(j.id)
    return overlay(
      {
        id: j.id,
        pageId: j.pageId,
        pageName: j.pageName,
        text: j.text,
        state: j.state,
        createdAt: j.createdAt,
        kind: j.kind,
        sent: j.sent,
        rejected: j.rejected,
        skipped: j.skipped,
        total: j.total,
        ...(j.stopReason ? { stopReason: j.stopReason } : {}),
        ...(r ? { delivered: r.delivered, read: r.read } : {}),
        ...(j.marketing
          ? {
              marketing: {
                sent: j.marketing.sent ?? 0,
                spendMinor: j.marketing.spendMinor ?? null,
                budgetMinor: j.marketing.budgetMinor,
                currency: j.marketing.currency,
              },
            }
          : {}),
      },
      events[j.id],
    )
  })
}

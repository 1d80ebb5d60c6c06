/** The jobs for the cards: Dexie liveQuery is the truth; progress events on the channel make it instant. */
import { useEffect, useState } from 'react'
import { useLiveQuery } from 'dexie-react-hooks'
import { jobs } from '../../../shared/bulk/records.ts'
import { broadcastChannel, type BulkMessage } from '../../../shared/bulk/protocol.ts'
import { overlay, type CardJob } from './card.ts'

type Progress = Extract<BulkMessage, { type: 'progress' }>

export function useBulkJobs(): CardJob[] {
  const list = useLiveQuery(() => jobs.orderBy('createdAt').reverse().toArray(), [], [])
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
  return list.map((j) =>
    overlay(
      {
        id: j.id,
        pageName: j.pageName,
        text: j.text,
        state: j.state,
        createdAt: j.createdAt,
        sent: j.sent,
        rejected: j.rejected,
        skipped: j.skipped,
        total: j.total,
        ...(j.stopReason ? { stopReason: j.stopReason } : {}),
      },
      events[j.id],
    ),
  )
}

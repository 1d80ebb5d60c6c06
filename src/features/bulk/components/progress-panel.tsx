/** The "Messages" panel of bulk progress cards, shown in every tab; it also starts this tab's sender. */
import { Trans } from '@lingui/react/macro'
import { useEffect } from 'react'
import { useBulkJobs } from '../model/use-bulk-jobs.ts'
import { startBulkSender } from '../sender-host.ts'
import { ProgressCard } from './progress-card.tsx'
import { ScheduledList } from './scheduled-list.tsx'

// This module is loaded only for a signed-in user (the app shell loads it lazily): the sender starts as soon
// as it arrives rather than after the signed-in screen's first render, which a resumed job's first send
// would otherwise wait for. The effect below starts it again if that start failed.
void startBulkSender()

export function BulkProgressPanel() {
  const list = useBulkJobs()
  useEffect(() => {
    void startBulkSender()
  }, [])
  if (list.length === 0) return <ScheduledList />
  return (
    <section className="flex flex-col gap-2 p-3" aria-labelledby="bulk-panel-title" data-testid="bulk-panel">
      <h2 id="bulk-panel-title" className="text-sm font-semibold text-slate-700">
        <Trans>Messages</Trans>
      </h2>
      <ScheduledList />
      <ul className="flex flex-col gap-2">
        {list.map((job) => (
          <ProgressCard key={job.id} job={job} />
        ))}
      </ul>
    </section>
  )
}

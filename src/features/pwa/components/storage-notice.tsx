/**
 * Tells the user when the device is low on storage or the browser cleared the app's saved data, and asks for
 * persistent storage once a bulk job is in progress (the moment there is something to lose).
 */
import { useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { useLiveQuery } from 'dexie-react-hooks'
import { db } from '../../../shared/db/db.ts'
import { checkStorageLow, requestPersistentStorage } from '../model/storage.ts'
import { detectEviction, writeStorageMarker } from '../model/eviction.ts'

/** States in which a job still has recipients to send to. */
const ACTIVE_STATES = [
  'queued',
  'running',
  'paused',
  'waiting_connection',
  'rate_limited',
  'needs_signin',
] as const

type Notice = 'low' | 'evicted'

export function StorageNotice() {
  const { t } = useLingui()
  const [notices, setNotices] = useState<Notice[]>([])
  const activeJobs = useLiveQuery(() => db.bulkJobs.where('state').anyOf(ACTIVE_STATES).count(), [], 0)

  useEffect(() => {
    let live = true
    void Promise.all([detectEviction(), checkStorageLow()]).then(([evicted, low]) => {
      if (!live) return
      setNotices([...(evicted ? (['evicted'] as const) : []), ...(low ? (['low'] as const) : [])])
    })
    return () => {
      live = false
    }
  }, [])

  useEffect(() => {
    if (activeJobs === 0) return
    void requestPersistentStorage()
    void writeStorageMarker().catch(() => undefined)
  }, [activeJobs])

  if (notices.length === 0) return null
  return (
    <div className="fixed inset-x-4 top-4 z-50 mx-auto flex max-w-md flex-col gap-2">
      {notices.map((n) => (
        <div
          key={n}
          role="alert"
          className="flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 shadow"
        >
          <p className="grow text-start">
            {n === 'low' ? (
              <Trans>
                Storage on this device is almost full. Free up some space so conversations and sending
                progress can be saved.
              </Trans>
            ) : (
              <Trans>
                Your browser cleared this app's saved data. Conversations load again from the network, and
                jobs in progress are restored from the server.
              </Trans>
            )}
          </p>
          <button
            type="button"
            aria-label={t`Dismiss`}
            onClick={() => setNotices((all) => all.filter((x) => x !== n))}
            className="rounded px-1 text-amber-900 hover:bg-amber-100"
          >
            ×
          </button>
        </div>
      ))}
    </div>
  )
}

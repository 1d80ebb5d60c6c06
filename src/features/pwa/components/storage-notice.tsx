/**
 * Tells the user when the device is low on storage or the browser cleared the app's saved data, and asks for
 * persistent storage once a bulk job is in progress (the moment there is something to lose).
 */
import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { useSession } from '../../../shared/session/store.ts'
import { lazyComponent } from '../../../shared/ui/lazy-component.tsx'
import { usePwaWords } from '../model/use-pwa-words.ts'

/** The jobs live in Dexie: its code is fetched only once someone is signed in. */
const KeepWhileSending = lazyComponent(
  () => import('./keep-while-sending.tsx').then((m) => m.KeepWhileSending),
  null,
)

export type StorageNoticeKind = 'low' | 'evicted'
type Notice = StorageNoticeKind

export interface StorageNoticeProps {
  /** What the registration found when it checked the device's storage. */
  notices: StorageNoticeKind[]
  /** Asks for persistent storage and writes the eviction marker (model/storage.ts, model/eviction.ts). */
  keepSavedData: () => void
}

export function StorageNotice({ notices: found, keepSavedData }: StorageNoticeProps) {
  const [notices, setNotices] = useState<Notice[]>(found)
  const signedIn = useSession().status === 'logged_in'

  const words = usePwaWords(signedIn || notices.length > 0)
  if (!words) return null
  return (
    <>
      {signedIn && <KeepWhileSending.View keep={keepSavedData} />}
      {notices.length > 0 && <Notices notices={notices} setNotices={setNotices} />}
    </>
  )
}

function Notices({
  notices,
  setNotices,
}: {
  notices: Notice[]
  setNotices: (update: (all: Notice[]) => Notice[]) => void
}) {
  const { t } = useLingui()
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
                Your browser cleared this app's saved data. Conversations load again from Facebook, and jobs
                in progress are restored from the server.
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

/**
 * Tells the user when the device is low on storage or the browser cleared the app's saved data, and asks for
 * persistent storage once a bulk job is in progress (the moment there is something to lose).
 */
import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useEffect, useRef } from 'react'
import { notify } from '../../../shared/notifications/store.ts'
import type { NotificationInput } from '../../../shared/notifications/model.ts'
import { useSession } from '../../../shared/session/store.ts'
import { lazyComponent } from '../../../shared/ui/lazy-component.tsx'
import { usePwaWords } from '../model/use-pwa-words.ts'

/** The jobs live in Dexie: its code is fetched only once someone is signed in. */
const KeepWhileSending = lazyComponent(
  () => import('./keep-while-sending.tsx').then((m) => m.KeepWhileSending),
  null,
)

export type StorageNoticeKind = 'low' | 'evicted'

export interface StorageNoticeProps {
  /** What the registration found when it checked the device's storage. */
  notices: StorageNoticeKind[]
  /** Asks for persistent storage and writes the eviction marker (model/storage.ts, model/eviction.ts). */
  keepSavedData: () => void
}

/**
 * The storage notices go to the app's notification stack once someone is signed in: below the header, they
 * cover neither it nor its counter, and a signed-out visitor has no saved data to lose or miss. They stay until
 * closed: freeing space takes the owner out of the app.
 */
export function StorageNotice({ notices, keepSavedData }: StorageNoticeProps) {
  const signedIn = useSession().status === 'logged_in'
  const words = usePwaWords(signedIn)
  const told = useRef(false)
  useEffect(() => {
    if (!words || !signedIn || told.current) return
    told.current = true
    for (const notice of notices) notify(storageNotice(notice))
  }, [words, signedIn, notices])
  return signedIn && words ? <KeepWhileSending.View keep={keepSavedData} /> : null
}

function storageNotice(kind: StorageNoticeKind): NotificationInput {
  return kind === 'low'
    ? {
        kind: 'warning',
        persistent: true,
        title: i18n._(msg`Storage almost full`),
        message: i18n._(
          msg`Storage on this device is almost full. Free up some space so conversations and sending progress can be saved.`,
        ),
      }
    : {
        kind: 'warning',
        persistent: true,
        title: i18n._(msg`Saved data cleared`),
        message: i18n._(
          msg`Your browser cleared this app's saved data. Conversations load again from Facebook, and jobs in progress are restored from the server.`,
        ),
      }
}

/**
 * The unread counts the device knows better than the accounts list: pages whose conversations are all in the
 * local cache (opening a conversation there clears its count at once). Read after the home screen is shown:
 * the local database's code is not part of the first screen.
 */
import { useEffect, useState } from 'react'

export function useSyncedPagesUnread(): Readonly<Record<string, number>> | undefined {
  const [counts, setCounts] = useState<Readonly<Record<string, number>>>()
  useEffect(() => {
    let live = true
    let stop: (() => void) | undefined
    void import('../../../features/inbox/model/unread.ts')
      .then(({ watchSyncedPagesUnread }) => {
        if (!live) return
        const subscription = watchSyncedPagesUnread().subscribe({
          next: (value) => setCounts(value),
          error: (err: unknown) => console.error('the unread counts could not be read', err),
        })
        stop = () => subscription.unsubscribe()
      })
      .catch((err: unknown) => console.error('the unread counts could not be loaded', err))
    return () => {
      live = false
      stop?.()
    }
  }, [])
  return counts
}

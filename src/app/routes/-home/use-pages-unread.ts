/**
 * What the device knows of each page's unread messages (the cache's sum, and whether it holds the whole page),
 * which `pageUnread` makes the same count the page's inbox shows. Read after the home screen is shown: the
 * local database's code is not part of the first screen.
 */
import { useEffect, useState } from 'react'
import type { LocalUnread } from '../../../shared/live/unread.ts'

export function usePagesUnread(): Readonly<Record<string, LocalUnread>> | undefined {
  const [counts, setCounts] = useState<Readonly<Record<string, LocalUnread>>>()
  useEffect(() => {
    let live = true
    let stop: (() => void) | undefined
    void import('../../../features/inbox/model/unread.ts')
      .then(({ watchPagesUnread }) => {
        if (!live) return
        const subscription = watchPagesUnread().subscribe({
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

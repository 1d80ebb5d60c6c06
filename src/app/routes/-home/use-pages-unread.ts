/**
 * What the device knows of each page's unread messages (the cache's sum, and whether it holds the whole page),
 * which `pageUnread` makes the same count the page's inbox shows: both take it from one shared read
 * (`subscribePagesUnread`). Read after the home screen is shown: the local database's code is not part of the
 * first screen.
 */
import { useEffect, useState } from 'react'
import type { LocalUnread } from '../../../shared/live/unread.ts'

export function usePagesUnread(): Readonly<Record<string, LocalUnread>> | undefined {
  const [counts, setCounts] = useState<Readonly<Record<string, LocalUnread>>>()
  useEffect(() => {
    let live = true
    let stop: (() => void) | undefined
    void import('../../../features/inbox/model/unread.ts')
      .then(({ pagesUnreadNow, subscribePagesUnread }) => {
        if (!live) return
        // The inbox's read, when one was just shown: the card starts from the count its header showed.
        const update = () => setCounts(pagesUnreadNow())
        stop = subscribePagesUnread(update)
        update()
      })
      .catch((err: unknown) => console.error('the unread counts could not be loaded', err))
    return () => {
      live = false
      stop?.()
    }
  }, [])
  return counts
}

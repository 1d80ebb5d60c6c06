/** The pages of home that cannot be used (banned, or the owner's access revoked), asked once per list of pages. */
import { onlineManager, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useOnline } from '../../../shared/network/use-online.ts'
import { pageStanding, pageStandingKey } from '../../../shared/api/index.ts'
import type { PageStanding } from '../../../core/contracts/api.ts'
import { type SessionState, sessionStore, useSession } from '../../../shared/session/store.ts'

/** How long home's cards wait for the answer at most, from when the session is checked. */
const STANDING_WAIT_MS = 2_000

/**
 * Asked with the session cookie, so a saved session drawn while its sign-in is checked asks it too: an offline
 * start does not.
 */
function standingQuery({
  accounts,
  offline,
  restoring,
}: Pick<SessionState, 'accounts' | 'offline' | 'restoring'>) {
  const ids = accounts.map((a) => a.id)
  return queryOptions({
    queryKey: pageStandingKey(ids),
    queryFn: () => pageStanding(ids),
    enabled: ids.length > 0 && (!offline || Boolean(restoring)),
    staleTime: 60_000,
    retry: false,
  })
}

function checkedSession(): Promise<SessionState> {
  return new Promise((resolve) => {
    const settled = () => {
      const state = sessionStore.getState()
      if (state.status === 'loading') return false
      resolve(state)
      return true
    }
    if (settled()) return
    const stop = sessionStore.subscribe(() => {
      if (settled()) stop()
    })
  })
}

/** Asks for the pages' standing as soon as the session is checked: the route starts it while its code loads. */
export async function prefetchPageStanding(queryClient: QueryClient): Promise<void> {
  // The route is preloaded while the session is still being checked: its pages are known once it is done.
  const query = standingQuery(await checkedSession())
  // Offline the question waits for the connection.
  if (query.enabled === false || !onlineManager.isOnline()) return
  await queryClient.prefetchQuery(query)
}

export interface PageStandingView {
  standing?: Readonly<Record<string, PageStanding>>
  /**
   * Whether home's cards can be drawn: a note arriving after them would make its card taller and push the
   * cards below it down, so they wait for the answer (the heading above them does not). A failure draws the
   * cards without notes; offline, or with no answer within two seconds, they are drawn without waiting.
   */
  settled: boolean
}

export function usePageStanding(): PageStandingView {
  const session = useSession()
  const query = standingQuery(session)
  const { data, isFetched } = useQuery(query)
  const [waited, setWaited] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), STANDING_WAIT_MS)
    return () => clearTimeout(timer)
  }, [])
  const online = useOnline()
  return { standing: data, settled: query.enabled === false || !online || isFetched || waited }
}

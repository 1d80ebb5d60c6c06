/** The pages of home that cannot be used (banned, or the owner's access revoked), asked once per list of pages. */
import { onlineManager, type QueryClient, queryOptions, useQuery } from '@tanstack/react-query'
import { pageStanding, pageStandingKey } from '../../../shared/api/index.ts'
import type { PageStanding } from '../../../core/contracts/api.ts'
import { type SessionState, sessionStore, useSession } from '../../../shared/session/store.ts'

/** How long home's cards wait for the answer at most. */
const STANDING_WAIT_MS = 2_000

function standingQuery({ accounts, offline }: Pick<SessionState, 'accounts' | 'offline'>) {
  const ids = accounts.map((a) => a.id)
  return queryOptions({
    queryKey: pageStandingKey(ids),
    queryFn: () => pageStanding(ids),
    enabled: ids.length > 0 && !offline,
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

/**
 * Home's cards wait for the answer (the layout around them is already shown): a note arriving after them would
 * make its card taller and push the cards below it down. A failure draws the cards without notes; offline, or
 * with no answer within two seconds, they are drawn without waiting.
 */
export async function loadPageStanding(queryClient: QueryClient): Promise<void> {
  // The route is preloaded while the session is still being checked: its pages are known once it is done.
  const query = standingQuery(await checkedSession())
  // Offline the question waits for the connection: the cards do not.
  if (query.enabled === false || !onlineManager.isOnline()) return
  // Nor do they wait long for a slow answer: its notes then come a moment after the cards.
  await Promise.race([
    queryClient.ensureQueryData(query).catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, STANDING_WAIT_MS)),
  ])
}

export function usePageStanding(): Readonly<Record<string, PageStanding>> | undefined {
  return useQuery(standingQuery(useSession())).data
}

import { createRouter } from '@tanstack/react-router'
import { QueryClient } from '@tanstack/react-query'
import { isApiError } from '../shared/api/client.ts'
import { isSubscriptionState } from '../shared/api/guards.ts'
import { setSubscription } from '../shared/session/store.ts'
import { ScreenError } from '../shared/ui/screen-error.tsx'
import { routeTree } from './routeTree.gen.ts'

/**
 * A query is retried once only when no answer came (status 0): an answered failure would fail the same way
 * again, and every failure already shows its notification once.
 */
const retryUnanswered = (failures: number, error: unknown) =>
  failures < 1 && (!isApiError(error) || error.status === 0)

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, retry: retryUnanswered, refetchOnWindowFocus: false } },
})

// Whoever refreshes ['user'] (the wizard's poll, a checkout) also updates the session's subscription.
queryClient.getQueryCache().subscribe((event) => {
  if (event.type !== 'updated' || event.query.queryKey.length !== 1 || event.query.queryKey[0] !== 'user')
    return
  const data: unknown = event.query.state.data
  if (isSubscriptionState(data)) setSubscription(data)
})

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  // A screen that cannot be drawn says so in the owner's language and offers to try again.
  defaultErrorComponent: ScreenError,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

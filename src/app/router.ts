import { createRouter } from '@tanstack/react-router'
import { QueryClient } from '@tanstack/react-query'
import { isSubscriptionState } from '../shared/api/guards.ts'
import { setSubscription } from '../shared/session/store.ts'
import { routeTree } from './routeTree.gen.ts'

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
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
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

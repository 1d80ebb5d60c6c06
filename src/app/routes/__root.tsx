import { Navigate, createRootRouteWithContext } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { AppShell } from '../shell/app-shell.tsx'

export interface RouterContext {
  queryClient: QueryClient
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: AppShell,
  // Any other path goes home (docs/product-rules.md#routes).
  notFoundComponent: () => <Navigate to="/" replace />,
})

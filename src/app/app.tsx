import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { I18nProvider } from '@lingui/react'
import { i18n } from '@lingui/core'
import { NotificationCenter } from '../shared/notifications/notification-center.tsx'
import { ModalHost } from './shell/modal-host.tsx'
import { bindModalsToUrl } from './shell/modal-url.ts'
import { queryClient, router } from './router.ts'
import { useEffect } from 'react'
import { sessionStore } from '../shared/session/store.ts'
import { closeAllModals } from '../shared/ui/modal-stack.ts'

// This module is fetched while the session is still being checked: fetch the current route's code meanwhile
// (in a task of its own: evaluating this module is already a long one).
setTimeout(() => void router.preloadRoute({ to: location.pathname } as never).catch(() => undefined))

export function App() {
  // Open modals live in the address bar, so Back closes the top one instead of leaving the app.
  useEffect(() => bindModalsToUrl(router), [])
  useEffect(
    () =>
      // Logging out forgets everything cached for the previous user.
      sessionStore.subscribe(() => {
        if (sessionStore.getState().status === 'logged_in') return
        closeAllModals()
        queryClient.clear()
      }),
    [],
  )
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <ModalHost />
        <NotificationCenter />
      </QueryClientProvider>
    </I18nProvider>
  )
}

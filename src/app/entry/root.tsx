/**
 * The first thing rendered. A logged-out visitor gets the login screen from the entry chunk alone; the full
 * app (router, queries, layout, features) is fetched only once a session exists, then takes over the same
 * root for good (it handles logout and the terms gate itself).
 */
import { useDeferredValue, useState } from 'react'
import { LoginScreen } from '../../features/auth/components/login-screen.tsx'
import { catalogsReady } from '../../i18n/activate.ts'
import { useSession } from '../../shared/session/store.ts'
import { lazyComponent } from '../../shared/ui/lazy-component.tsx'
import { LoadingDots } from '../../shared/ui/loading-dots.tsx'

// The app's code and the locale's other catalogs (app, inbox, bulk, marketing) arrive together: the first render
// has every text, and no catalog arriving later renders it all again.
const FullApp = lazyComponent(
  () => Promise.all([import('../app.tsx'), catalogsReady()]).then(([m]) => m.App),
  <LoadingDots fullScreen />,
)

export const loadFullApp = FullApp.load

export function Root() {
  const session = useSession()
  const [signedInOnce, setSignedInOnce] = useState(false)
  if (session.status === 'logged_in' && !signedInOnce) setSignedInOnce(true)
  // The signed-in app is a large first render: as a deferred value it renders in the background, in slices
  // that leave the page responsive, while the dots stay up.
  const signedIn = useDeferredValue(signedInOnce || session.status === 'logged_in')
  if (signedIn) return <FullApp.View />
  if (signedInOnce) return <LoadingDots fullScreen />
  if (session.status === 'loading') return <LoadingDots fullScreen />
  return <LoginScreen />
}

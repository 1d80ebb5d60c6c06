/**
 * The first thing rendered. A logged-out visitor gets the login screen from the entry chunk alone; the full
 * app (router, queries, layout, features) is fetched only once a session exists, then takes over the same
 * root for good (it handles logout and the terms gate itself).
 */
import { lazy, Suspense, useState } from 'react'
import { LoginScreen } from '../../features/auth/components/login-screen.tsx'
import { useSession } from '../../shared/session/store.ts'
import { LoadingDots } from '../../shared/ui/loading-dots.tsx'

export const loadFullApp = () => import('../app.tsx')

const FullApp = lazy(() => loadFullApp().then((m) => ({ default: m.App })))

export function Root() {
  const session = useSession()
  const [signedInOnce, setSignedInOnce] = useState(false)
  if (session.status === 'logged_in' && !signedInOnce) setSignedInOnce(true)
  if (signedInOnce || session.status === 'logged_in')
    return (
      <Suspense fallback={<LoadingDots fullScreen />}>
        <FullApp />
      </Suspense>
    )
  if (session.status === 'loading') return <LoadingDots fullScreen />
  return <LoginScreen />
}

/**
 * Mounts the PWA notices in a root of their own, outside the router: they belong to the installed app, not to
 * a screen, and keeping them (and Dexie) in this lazily loaded chunk keeps them off the login route's budget.
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { I18nProvider } from '@lingui/react'
import { i18n } from '@lingui/core'
import { catalogsReady } from '../../i18n/activate.ts'
import { PwaNotices } from './components/pwa-notices.tsx'

export function mountPwaNotices(): void {
  if (document.getElementById('pwa-notices')) return
  const host = document.createElement('div')
  host.id = 'pwa-notices'
  document.body.append(host)
  // Their words first: a signed-out visitor's app has loaded only the app catalog.
  void catalogsReady(['pwa']).then(() =>
    createRoot(host).render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <PwaNotices />
        </I18nProvider>
      </StrictMode>,
    ),
  )
}

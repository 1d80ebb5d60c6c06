/**
 * Mounts the PWA notices in a root of their own, outside the router: they belong to the installed app, not to
 * a screen. This chunk (with Dexie behind it) loads only once they have something to say (register.ts), which
 * keeps them off the login route's download.
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { I18nProvider } from '@lingui/react'
import { i18n } from '@lingui/core'
import { PwaNotices } from './components/pwa-notices.tsx'
import type { StorageNoticeProps } from './components/storage-notice.tsx'
import type { UpdateStore } from './model/update-store.ts'

export function mountPwaNotices(props: StorageNoticeProps & { update: UpdateStore }): void {
  if (document.getElementById('pwa-notices')) return
  const host = document.createElement('div')
  host.id = 'pwa-notices'
  document.body.append(host)
  // Each notice loads its words when it has something to say (model/use-pwa-words.ts).
  createRoot(host).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <PwaNotices {...props} />
      </I18nProvider>
    </StrictMode>,
  )
}

/**
 * Registers the service worker through workbox-window (production builds only). A new version waits; the
 * prompt asks the user, and only then does the page post SKIP_WAITING and reload under the new worker.
 * It also mounts the PWA notices (update prompt, storage low, eviction), so the app has nothing to wire.
 */
import { Workbox } from 'workbox-window'
import { updateStore } from './model/update-store.ts'
import { applyUpdate } from './model/apply-update.ts'
import { mountPwaNotices } from './mount.tsx'

/** How often an open app looks for a new version (an installed app may stay open for days). */
const UPDATE_CHECK_MS = 60 * 60 * 1000

/** The guard reads the jobs from Dexie: its code is fetched only when the user accepts an update. */
const sendGuard = () => import('./model/send-guard.ts')
const isSending = () => sendGuard().then((guard) => guard.isBulkSending())
const whenNotSending = () => sendGuard().then((guard) => guard.whenNotSending())

export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  mountPwaNotices()
  const wb = new Workbox('/sw.js', { scope: '/' })
  const activate = () => {
    wb.addEventListener('controlling', () => window.location.reload())
    wb.messageSkipWaiting()
  }
  updateStore.setAccept(() => applyUpdate({ store: updateStore, isSending, whenNotSending, activate }))
  wb.addEventListener('waiting', () => updateStore.set({ waiting: true }))
  const registration = await wb.register()
  if (registration) setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS)
}

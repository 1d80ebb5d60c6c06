/**
 * Registers the service worker (production builds only). A new version waits; the prompt asks the user, and
 * only then does the page post SKIP_WAITING to the waiting worker and reload once it controls the page.
 * The PWA notices (update prompt, storage low, eviction) mount themselves, code and words, only once they
 * have something to say or a signed-in user's jobs to look after, so the app has nothing to wire.
 */
import { sessionStore } from '../../shared/session/store.ts'
import { updateStore } from './model/update-store.ts'
import { applyUpdate } from './model/apply-update.ts'
import { checkStorageLow, requestPersistentStorage } from './model/storage.ts'
import { detectEviction, writeStorageMarker } from './model/eviction.ts'
import type { StorageNoticeKind } from './components/storage-notice.tsx'

/** How often an open app looks for a new version (an installed app may stay open for days). */
const UPDATE_CHECK_MS = 60 * 60 * 1000

/** The guard reads the jobs from Dexie: its code is fetched only when the user accepts an update. */
const sendGuard = () => import('./model/send-guard.ts')
const isSending = () => sendGuard().then((guard) => guard.isBulkSending())
const whenNotSending = () => sendGuard().then((guard) => guard.whenNotSending())

/** Once a job is in progress there is something to lose: keep the data, and note that it was kept. */
function keepSavedData(): void {
  void requestPersistentStorage()
  void writeStorageMarker().catch(() => undefined)
}

/**
 * Reports a new worker once it is installed and waiting: one found waiting at registration, or one that
 * finishes installing later. The very first worker of a page that no worker controls yet takes over by
 * itself (there is no older version to keep), so it is not an update.
 */
export function watchForWaitingWorker(registration: ServiceWorkerRegistration, onWaiting: () => void): void {
  const isUpdate = () => navigator.serviceWorker.controller !== null
  if (registration.waiting && isUpdate()) onWaiting()
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed' && isUpdate()) onWaiting()
    })
  })
}

/** Mounts the notices once: when storage is low or was cleared, an update waits, or someone signs in. */
async function mountNoticesWhenNeeded(): Promise<void> {
  const [evicted, low] = await Promise.all([detectEviction(), checkStorageLow()])
  const notices: StorageNoticeKind[] = [
    ...(evicted ? ['evicted' as const] : []),
    ...(low ? ['low' as const] : []),
  ]
  let mounted = false
  const stops: (() => void)[] = []
  const mount = () => {
    if (mounted) return
    mounted = true
    for (const stop of stops) stop()
    void import('./mount.tsx').then((m) => m.mountPwaNotices({ notices, keepSavedData, update: updateStore }))
  }
  const needed = () =>
    notices.length > 0 || updateStore.get().waiting || sessionStore.getState().status === 'logged_in'
  if (needed()) return mount()
  const check = () => {
    if (needed()) mount()
  }
  stops.push(updateStore.subscribe(check), sessionStore.subscribe(check))
}

export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  void mountNoticesWhenNeeded()
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' })
  const activate = () => {
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
      once: true,
    })
    registration.waiting?.postMessage({ type: 'SKIP_WAITING' })
  }
  updateStore.setAccept(() => applyUpdate({ store: updateStore, isSending, whenNotSending, activate }))
  watchForWaitingWorker(registration, () => updateStore.set({ waiting: true }))
  setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS)
}

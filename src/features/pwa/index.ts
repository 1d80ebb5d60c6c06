/** The PWA feature's public surface. */
export { PwaNotices } from './components/pwa-notices.tsx'
export { requestPersistentStorage } from './model/storage.ts'

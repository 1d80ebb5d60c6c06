/** The PWA feature's public surface (the notices mount themselves when the service worker registers). */
export { requestPersistentStorage } from './model/storage.ts'

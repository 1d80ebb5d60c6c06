/// <reference lib="webworker" />
// The service worker entry only wires events; the handlers live in modules beside it.
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching'
import { registerRoutes } from './caching.ts'
import { handleSwMessage } from './messages.ts'

declare const self: ServiceWorkerGlobalScope

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()
registerRoutes(self.location.origin)

// No skipWaiting on install: a new version waits until the user agrees in the app (never mid-send).
self.addEventListener('message', (event) => {
  event.waitUntil(handleSwMessage(event.data, () => self.skipWaiting()))
})

/// <reference lib="webworker" />
// The service worker entry only wires events; the handlers live in modules beside it.
import { clientsClaim } from 'workbox-core'
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching'
import { registerRoutes } from './caching.ts'
import { handleSwMessage } from './messages.ts'
import { openFromNotification, pushData, showPush } from './push.ts'

declare const self: ServiceWorkerGlobalScope

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()
registerRoutes(self.location.origin)
// The first install controls open pages at once (offline works after one visit); later versions still wait.
clientsClaim()

// No skipWaiting on install: a new version waits until the user agrees in the app (never mid-send).
self.addEventListener('message', (event) => {
  event.waitUntil(handleSwMessage(event.data, () => self.skipWaiting()))
})

// Web Push: one notification per conversation; a click opens it (see push.ts).
self.addEventListener('push', (event) => {
  event.waitUntil(showPush(self.registration, pushData(event), { title: 'Pagecast' }))
})
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const data = event.notification.data as { url?: unknown } | null
  const url = typeof data?.url === 'string' ? data.url : '/'
  event.waitUntil(openFromNotification(self.clients, self.location.origin, url))
})

/** Run-time routes of the service worker: the offline shell for navigations and the picture caches. */
import { createHandlerBoundToURL } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkOnly, StaleWhileRevalidate } from 'workbox-strategies'
import { ExpirationPlugin } from 'workbox-expiration'
import type { WorkboxPlugin } from 'workbox-core/types.js'
import { PICTURE_CACHE, UPLOAD_CACHE } from '../core/constants/caches.ts'
import {
  isDataRequest,
  isEventStream,
  isPictureRequest,
  isUploadedImage,
  navigationDenylist,
  pictureCacheKey,
} from './match.ts'

export { PICTURE_CACHE, UPLOAD_CACHE }

/** Pictures are small but numerous; a week is long enough to read offline, short enough to see new avatars. */
const PICTURE_MAX_ENTRIES = 500
const PICTURE_MAX_AGE_SECONDS = 7 * 24 * 60 * 60

/** Keeps error pages out of the caches; opaque cross-origin images are kept (their status is unknowable). */
const onlyGoodResponses: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => (response.ok || response.type === 'opaque' ? response : null),
}

/** One cache entry per picture, whatever token the page or owner holds now (see pictureCacheKey). */
const withoutToken: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => pictureCacheKey(new URL(request.url)),
}

const expiration = () =>
  // purgeOnQuotaError: opaque responses are padded by the browser, so a full quota drops this cache first.
  new ExpirationPlugin({
    maxEntries: PICTURE_MAX_ENTRIES,
    maxAgeSeconds: PICTURE_MAX_AGE_SECONDS,
    purgeOnQuotaError: true,
  })

export function registerRoutes(origin: string): void {
  // Registered first so no later route can ever store an API or Graph response. The live event stream is
  // matched by no route at all: it goes to the network without passing through this worker.
  registerRoute(({ url }) => isDataRequest(url, origin) && !isEventStream(url, origin), new NetworkOnly())
  registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: navigationDenylist }))
  registerRoute(
    ({ url, request }) => request.destination === 'image' && isUploadedImage(url, origin),
    new CacheFirst({ cacheName: UPLOAD_CACHE, plugins: [onlyGoodResponses, expiration()] }),
  )
  registerRoute(
    ({ url }) => isPictureRequest(url, origin),
    new StaleWhileRevalidate({
      cacheName: PICTURE_CACHE,
      plugins: [withoutToken, onlyGoodResponses, expiration()],
    }),
  )
}

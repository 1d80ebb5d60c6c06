/**
 * Which requests the service worker handles, as pure predicates (tested beside this file). The invariant:
 * API and Graph JSON responses are never cached here; the app keeps its data in Dexie.
 */

/** Paths the navigation fallback must leave to the network: the API, the sandbox pages, uploaded files. */
export const navigationDenylist: RegExp[] = [/^\/api(\/|$)/, /^\/sandbox(\/|$)/, /^\/uploads(\/|$)/]

/** Hosts that serve profile and page pictures for the real network. */
const pictureHosts = [/\.fbcdn\.net$/, /^platform-lookaside\.fbsbx\.com$/]

/** API and Graph calls: never cached, whatever their content type. */
export function isDataRequest(url: URL, origin: string): boolean {
  if (url.origin === origin)
    return (
      url.pathname.startsWith('/api/') ||
      (url.pathname.startsWith('/sandbox/graph/') && !isGraphPicturePath(url.pathname))
    )
  return url.hostname === 'graph.facebook.com' && !isGraphPicturePath(url.pathname)
}

/** `/{id}/picture` on the Graph (optionally versioned, optionally under the sandbox prefix). */
function isGraphPicturePath(pathname: string): boolean {
  return /^(\/sandbox\/graph)?(\/v\d+\.\d+)?\/[^/]+\/picture\/?$/.test(pathname)
}

/**
 * The live event stream (`/api/v2/events`): no route of the worker answers it, so the browser sends it
 * straight to the network. Answered through the worker's fetch handler, the endless response would keep the
 * worker running for as long as the tab is open, and a worker stopped or replaced would end it.
 */
export function isEventStream(url: URL, origin: string): boolean {
  return url.origin === origin && url.pathname.replace(/\/+$/, '') === '/api/v2/events'
}

/** Uploaded images on our origin: immutable once written, so cache-first is safe. */
export function isUploadedImage(url: URL, origin: string): boolean {
  return url.origin === origin && url.pathname.startsWith('/uploads/')
}

/** Avatars and page pictures: they change now and then, so a cached copy is shown and refreshed. */
export function isPictureRequest(url: URL, origin: string): boolean {
  if (url.origin === origin)
    return url.pathname.startsWith('/sandbox/graph/') && isGraphPicturePath(url.pathname)
  if (url.hostname === 'graph.facebook.com') return isGraphPicturePath(url.pathname)
  return pictureHosts.some((h) => h.test(url.hostname))
}

/** Whether a navigation to this path may be answered with the cached app shell. */
export function isShellNavigation(pathname: string): boolean {
  return !navigationDenylist.some((re) => re.test(pathname))
}

/**
 * The cache key of a picture: its URL without the access token. Graph picture URLs carry the viewer's token,
 * which changes at every refresh; keyed with it, every token would cache every picture again. The CDN's own
 * signature parameters stay, since they name a different file.
 */
export function pictureCacheKey(url: URL): string {
  const key = new URL(url.href)
  key.searchParams.delete('access_token')
  return key.href
}

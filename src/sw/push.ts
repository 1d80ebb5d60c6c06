/**
 * Web Push in the service worker: a push shows one notification per conversation (its tag; a newer message
 * replaces the older one and alerts again), and a click opens that conversation, in the app's open window
 * when there is one (the app navigates itself, so nothing running in it is reloaded) or in a new one.
 *
 * Every text arrives already in the device's language: the server words it from the language the app sent
 * with the subscription (a service worker cannot read the language chosen in the app), so this file holds
 * no strings of its own.
 */
import type { PushPayload } from '../core/contracts/push.ts'

export const NOTIFICATION_ICON = '/icons/icon-192.png'
/** White on transparent: Android draws the badge as a mask in the status bar. */
export const NOTIFICATION_BADGE = '/icons/badge-96.png'

/** What the service worker posts to the app's window to open a screen in it. */
export interface OpenUrlMessage {
  type: 'OPEN_URL'
  url: string
}

const str = (v: unknown): v is string => typeof v === 'string'

/** The push's JSON, checked; null for anything else (a push must never throw in the worker). */
export function parsePushPayload(data: unknown): PushPayload | null {
  if (typeof data !== 'object' || data === null) return null
  const d = data as Record<string, unknown>
  if (!str(d.title) || !str(d.body) || !str(d.url)) return null
  if (d.type === 'message') {
    if (!str(d.pageId) || !str(d.customerId) || !str(d.tag)) return null
    return {
      type: 'message',
      pageId: d.pageId,
      customerId: d.customerId,
      title: d.title,
      body: d.body,
      pageName: str(d.pageName) ? d.pageName : '',
      url: d.url,
      tag: d.tag,
      lang: str(d.lang) ? d.lang : '',
      dir: d.dir === 'rtl' ? 'rtl' : 'ltr',
    }
  }
  if (d.type === 'notice')
    return {
      type: 'notice',
      title: d.title,
      body: d.body,
      url: d.url,
      ...(str(d.tag) ? { tag: d.tag } : {}),
      ...(str(d.lang) ? { lang: d.lang } : {}),
      dir: d.dir === 'rtl' ? 'rtl' : 'ltr',
    }
  return null
}

/** Only a path of this app may be opened from a notification. */
export function safeAppUrl(url: string, origin: string): string {
  try {
    const resolved = new URL(url, origin)
    return resolved.origin === origin ? `${resolved.pathname}${resolved.search}${resolved.hash}` : '/'
  } catch {
    return '/'
  }
}

export function notificationFor(payload: PushPayload): { title: string; options: NotificationOptions } {
  const tag = payload.tag
  // The customer names the notification; the page it wrote to comes first in the body.
  const body =
    payload.type === 'message' && payload.pageName ? `${payload.pageName} · ${payload.body}` : payload.body
  const options: NotificationOptions & { renotify?: boolean } = {
    body,
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_BADGE,
    ...(payload.lang ? { lang: payload.lang } : {}),
    dir: payload.dir ?? 'auto',
    data: {
      url: payload.url,
      ...(payload.type === 'message' ? { pageId: payload.pageId, customerId: payload.customerId } : {}),
    },
    ...(tag ? { tag, renotify: true } : {}),
  }
  return { title: payload.title, options }
}

/** A push whose payload cannot be read still shows something: browsers penalise silent pushes. */
export async function showPush(
  registration: Pick<ServiceWorkerRegistration, 'showNotification'>,
  data: unknown,
  fallback: { title: string },
): Promise<void> {
  const payload = parsePushPayload(data)
  if (!payload) {
    await registration.showNotification(fallback.title, {
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE,
      data: { url: '/' },
    })
    return
  }
  const { title, options } = notificationFor(payload)
  await registration.showNotification(title, options)
}

/** The JSON of a push, or undefined when it has none or it is not JSON. */
export function pushData(event: { data: { json(): unknown } | null }): unknown {
  try {
    return event.data?.json()
  } catch {
    return undefined
  }
}

/**
 * Opens `url` from a notification click: the app's window that is focused, else visible, else any, is
 * focused and told to navigate; with none, a new window opens on the conversation.
 */
export async function openFromNotification(clients: Clients, origin: string, rawUrl: string): Promise<void> {
  const url = safeAppUrl(rawUrl, origin)
  const windows = (await clients.matchAll({ type: 'window', includeUncontrolled: true })) as WindowClient[]
  const ours = windows.filter((w) => new URL(w.url).origin === origin)
  const target = ours.find((w) => w.focused) ?? ours.find((w) => w.visibilityState === 'visible') ?? ours[0]
  if (target) {
    const message: OpenUrlMessage = { type: 'OPEN_URL', url }
    target.postMessage(message)
    await target.focus().catch(() => undefined)
    return
  }
  await clients.openWindow(url)
}

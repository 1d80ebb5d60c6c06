/**
 * Notifications on this device: whether the browser can show them, the permission (asked only when the
 * owner turns notifications on), the push subscription made with the server's VAPID key and stored on the
 * server, and the owner's hide-text setting. The device is "on" when the permission is granted and the
 * browser holds a subscription.
 */
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../shared/api/client.ts'
import { userScopedKey } from '../../../shared/api/user.ts'
import { ApiError } from '../../../core/api/request.ts'
import type { PushSettings } from '../../../core/contracts/push.ts'

export type PushAvailability =
  /** The browser has no Web Push (or no service worker: a development build). */
  | 'unsupported'
  /** iPhone and iPad: Web Push exists only in the app added to the home screen. */
  | 'ios-install'
  /** The owner (or a policy) blocked notifications for the app in the browser. */
  | 'denied'
  | 'available'

export interface PushEnvironment {
  userAgent: string
  maxTouchPoints: number
  standalone: boolean
  hasPush: boolean
  permission: NotificationPermission | undefined
}

export function browserPushEnvironment(): PushEnvironment {
  const nav = navigator as Navigator & { standalone?: boolean }
  return {
    userAgent: nav.userAgent,
    maxTouchPoints: nav.maxTouchPoints ?? 0,
    standalone: nav.standalone === true || matchMedia('(display-mode: standalone)').matches,
    hasPush:
      'serviceWorker' in nav &&
      typeof window.PushManager === 'function' &&
      typeof window.Notification === 'function',
    permission: typeof window.Notification === 'function' ? Notification.permission : undefined,
  }
}

/** iPadOS presents itself as a Mac; touch gives it away. */
function isAppleMobile(env: PushEnvironment): boolean {
  return /iPad|iPhone|iPod/.test(env.userAgent) || (/Macintosh/.test(env.userAgent) && env.maxTouchPoints > 1)
}

export function pushAvailability(env: PushEnvironment): PushAvailability {
  if (!env.hasPush) return isAppleMobile(env) && !env.standalone ? 'ios-install' : 'unsupported'
  if (env.permission === 'denied') return 'denied'
  return 'available'
}

/** How long turning notifications on waits for the service worker the app registers after its first paint. */
const WORKER_WAIT_MS = 10_000

/** The registration of the app's service worker, or undefined when there is none (development builds). */
async function registration(wait = false): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator)) return undefined
  const now = await navigator.serviceWorker.getRegistration('/')
  if (now || !wait) return now ?? undefined
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), WORKER_WAIT_MS)),
  ])
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await registration()
  return (await reg?.pushManager.getSubscription()) ?? null
}

export function base64urlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=')
  const binary = atob(base64)
  const bytes = new Uint8Array(new ArrayBuffer(binary.length))
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false
  const x = new Uint8Array(a)
  return x.every((v, i) => v === b[i])
}

/** Sends the device's subscription; answers whether the server holds it now. */
export async function storeSubscription(
  sub: PushSubscription,
  locale: string,
  refresh = false,
): Promise<boolean> {
  const json = sub.toJSON()
  const answer = await api<{ stored?: boolean }>('/push/subscription', {
    method: 'PUT',
    body: {
      endpoint: sub.endpoint,
      keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth },
      locale,
      ...(refresh ? { refresh: true } : {}),
    },
  })
  return answer.stored !== false
}

/** `push-refused`: the browser's push service would not register the device (offline, blocked, down). */
export type EnableResult = 'on' | 'denied' | 'dismissed' | 'unsupported' | 'push-refused'

/**
 * Turns notifications on for this device. The permission prompt comes from here only, after the owner
 * turned the switch on: never on load.
 */
export async function enablePush(locale: string): Promise<EnableResult> {
  if (typeof window.Notification !== 'function') return 'unsupported'
  const permission = await Notification.requestPermission()
  if (permission === 'denied') return 'denied'
  if (permission !== 'granted') return 'dismissed'
  const reg = await registration(true)
  if (!reg) return 'unsupported'
  const { publicKey } = await api<{ publicKey: string }>('/push/key')
  const key = base64urlToBytes(publicKey)
  let sub = await reg.pushManager.getSubscription()
  // A subscription made with other keys (the server's were replaced) cannot receive: make a new one.
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe().catch(() => undefined)
    sub = null
  }
  if (!sub) {
    try {
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
    } catch (err) {
      console.warn('the push service refused the subscription', err)
      return 'push-refused'
    }
  }
  try {
    await storeSubscription(sub, locale)
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 409)) throw err
    // Another account holds this browser's subscription (it signed in here and never out): the browser
    // makes a new one for this account, and the old one stops reaching the other.
    await sub.unsubscribe().catch(() => undefined)
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
    await storeSubscription(sub, locale)
  }
  return 'on'
}

/** Turns notifications off for this device: the server forgets it, then the browser does. */
export async function disablePush(): Promise<void> {
  const sub = await currentSubscription()
  if (!sub) return
  await api('/push/subscription', { method: 'DELETE', body: { endpoint: sub.endpoint } })
  await sub.unsubscribe().catch(() => undefined)
}

/**
 * At each start and language change: the server learns the device's current subscription and language
 * (the browser may have renewed the one it had), if it still holds this device's subscription for this
 * user. Does nothing on a device without notifications.
 */
export async function syncPushSubscription(locale: string): Promise<void> {
  if (typeof window.Notification !== 'function' || Notification.permission !== 'granted') return
  const sub = await currentSubscription()
  if (!sub) return
  // Signing out ended this device's notifications on the server (whoever signs in next turns them on
  // again): the browser's subscription goes too, so the switch says off.
  if (!(await storeSubscription(sub, locale, true))) await sub.unsubscribe().catch(() => undefined)
}

export const pushSettingsKey = userScopedKey('push-settings')

export async function getPushSettings(): Promise<PushSettings> {
  return api<PushSettings>('/push/settings')
}

/** The owner's notification settings, as the account screen reads them. */
export function pushSettingsQueryOptions() {
  return queryOptions({ queryKey: pushSettingsKey, queryFn: getPushSettings })
}

export async function setPushSettings(settings: PushSettings): Promise<PushSettings> {
  return api<PushSettings>('/push/settings', { method: 'PUT', body: settings })
}

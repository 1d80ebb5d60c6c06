/**
 * The signed-in app's side of notifications: a click on a notification, relayed by the service worker as
 * `{type: 'OPEN_URL', url}`, opens that screen in this window without a reload; and at start and at each
 * language change the server learns this device's current push subscription and language (the
 * notification code loads only on a device where notifications are on).
 */
import { useLingui } from '@lingui/react'
import { useRouter } from '@tanstack/react-router'
import { useEffect } from 'react'

export function useNotificationClicks(): void {
  const router = useRouter()
  const { i18n } = useLingui()
  const locale = i18n.locale

  useEffect(() => {
    if (!('serviceWorker' in navigator)) return
    const container = navigator.serviceWorker
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null
      if (data?.type !== 'OPEN_URL' || typeof data.url !== 'string' || !data.url.startsWith('/')) return
      // As a link would: the history entry moves and the router renders the screen with its search.
      router.history.push(data.url)
    }
    container.addEventListener('message', onMessage)
    // Messages the worker sent before this listener existed are delivered now.
    container.startMessages()
    return () => container.removeEventListener('message', onMessage)
  }, [router])

  useEffect(() => {
    if (typeof window.Notification !== 'function' || Notification.permission !== 'granted') return
    void import('../../features/account/api/push.ts')
      .then((push) => push.syncPushSubscription(locale))
      .catch((err: unknown) => console.error('push subscription could not be refreshed', err))
  }, [locale])
}

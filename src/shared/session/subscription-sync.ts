/**
 * Every open tab learns of a new subscription (after checkout the user returns to the app root,
 * docs/product-rules.md#routes): the tab that returns from checkout tells the others on a BroadcastChannel,
 * and a tab that comes back into focus reads the subscription again (a purchase on another device, a missed
 * message).
 */
import { useEffect } from 'react'
import { getUser } from '../api/user.ts'
import { setSubscription } from './store.ts'

/** The channel's name; other tabs of older builds listen on it too, so do not rename it. */
export const SUBSCRIPTION_CHANNEL = 'subscription'

export type SubscriptionMessage = { type: 'subscription-changed' }

export function subscriptionChanged(): SubscriptionMessage {
  return { type: 'subscription-changed' }
}

function isSubscriptionMessage(value: unknown): value is SubscriptionMessage {
  return !!value && typeof value === 'object' && (value as { type?: unknown }).type === 'subscription-changed'
}

function openChannel(): BroadcastChannel | undefined {
  return typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(SUBSCRIPTION_CHANNEL)
}

/** Tells the other tabs that the subscription changed (this tab has read it already). */
export function announceSubscriptionChange(): void {
  const channel = openChannel()
  channel?.postMessage(subscriptionChanged())
  channel?.close()
}

/** Focus events come in bursts (window and document); one read per burst is enough. */
const FOCUS_REFRESH_GAP_MS = 2_000

/** Reads the subscription again when another tab announces a change or when this tab is focused. */
export function useSubscriptionSync(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return
    let last = 0
    const refresh = () => {
      last = Date.now()
      void getUser()
        .then(setSubscription)
        .catch(() => undefined)
    }
    const onFocus = () => {
      if (document.visibilityState === 'visible' && Date.now() - last >= FOCUS_REFRESH_GAP_MS) refresh()
    }
    const channel = openChannel()
    const onMessage = (event: MessageEvent) => {
      if (isSubscriptionMessage(event.data)) refresh()
    }
    channel?.addEventListener('message', onMessage)
    window.addEventListener('focus', onFocus)
    document.addEventListener('visibilitychange', onFocus)
    return () => {
      channel?.removeEventListener('message', onMessage)
      channel?.close()
      window.removeEventListener('focus', onFocus)
      document.removeEventListener('visibilitychange', onFocus)
    }
  }, [enabled])
}

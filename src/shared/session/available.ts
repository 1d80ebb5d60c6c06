/**
 * The available-message count read again from the server (the allowance badge and the wizard show it): after
 * a send recorded elsewhere (the server's sender, another device) and while the wizard is open.
 */
import { silentApi } from '../api/client.ts'
import { unwrap } from '../api/session-fetch.ts'
import { sessionStore, setSubscription } from './store.ts'

/** Reads the count without notifying a failure (a background read; the next one tries again). */
export async function refreshAvailableMessages(): Promise<void> {
  const available = unwrap(await silentApi<unknown>('/user/available-messages'), 'available_messages')
  if (typeof available !== 'number') return
  const sub = sessionStore.getState().subscription
  if (sub && sub.available_messages !== available) setSubscription({ ...sub, available_messages: available })
}

/** At most one read in flight, and one more queued behind it: a burst of progress events costs two calls. */
let running: Promise<void> | undefined
let again = false

export function refreshAvailableSoon(): void {
  if (running) {
    again = true
    return
  }
  running = refreshAvailableMessages()
    .catch(() => undefined)
    .finally(() => {
      running = undefined
      if (again) {
        again = false
        refreshAvailableSoon()
      }
    })
}

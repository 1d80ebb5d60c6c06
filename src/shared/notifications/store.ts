/** The one notification store: `notify()` from anywhere (including non-React code), shown by NotificationCenter. */
import { useSyncExternalStore } from 'react'
import { NOTIFICATION_AUTO_CLOSE_MS } from '../../core/constants/limits.ts'
import { type AppNotification, type NotificationInput, pushNotification } from './model.ts'

type Listener = () => void

let items: AppNotification[] = []
const listeners = new Set<Listener>()
const timers = new Map<string, ReturnType<typeof setTimeout>>()
let counter = 0

function emit(): void {
  for (const l of listeners) l()
}

export function notify(input: NotificationInput): string {
  counter += 1
  const id = `n${Date.now().toString(36)}-${counter}`
  const next: AppNotification = { ...input, id, createdAt: Date.now() }
  const before = new Set(items.map((n) => n.id))
  items = pushNotification(items, next)
  for (const gone of before) {
    if (!items.some((n) => n.id === gone)) clearTimer(gone)
  }
  // A persistent notice stays until closed (docs/product-rules.md#error-catalogue); it stands at the top, clear of
  // the composer and the Send buttons, so staying covers nothing the owner needs.
  if (!input.persistent)
    timers.set(
      id,
      setTimeout(() => dismiss(id), NOTIFICATION_AUTO_CLOSE_MS),
    )
  emit()
  return id
}

function clearTimer(id: string): void {
  const t = timers.get(id)
  if (t) clearTimeout(t)
  timers.delete(id)
}

export function dismiss(id: string): void {
  clearTimer(id)
  const next = items.filter((n) => n.id !== id)
  if (next.length === items.length) return
  items = next
  emit()
}

export function dismissAll(): void {
  for (const id of timers.keys()) clearTimer(id)
  items = []
  emit()
}

export const notificationStore = {
  getState: (): readonly AppNotification[] => items,
  subscribe(listener: Listener): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

export function useNotifications(): readonly AppNotification[] {
  return useSyncExternalStore(notificationStore.subscribe, notificationStore.getState)
}

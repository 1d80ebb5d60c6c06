/**
 * Pure rules of the notification stack (top-centre, at most five at once:
 * docs/product-rules.md#constants-and-limits).
 */
import { NOTIFICATIONS_MAX } from '../../core/constants/limits.ts'

export type NotificationKind = 'success' | 'info' | 'warning' | 'error'

export interface NotificationAction {
  label: string
  onClick: () => void
}

export interface NotificationInput {
  kind: NotificationKind
  title: string
  message?: string
  /** Whom or what the message is about (a customer's or page's name), shown isolated before the message. */
  subject?: string
  /** The network's own words (its text and code), shown isolated beside the message in the user's language. */
  detail?: string
  /**
   * Stays until it is closed (or its action used): the notices the error catalogue keeps (a rejected message,
   * no messages left, a used trial, a banned page) and the device's storage warnings. Any other closes by
   * itself after NOTIFICATION_AUTO_CLOSE_MS.
   */
  persistent?: boolean
  action?: NotificationAction
}

export interface AppNotification extends NotificationInput {
  id: string
  createdAt: number
}

/**
 * Adds a notification, keeping at most `max`: when full, the oldest auto-closing one makes room, and only
 * when every shown one is persistent does the oldest persistent one go.
 */
export function pushNotification(
  list: readonly AppNotification[],
  next: AppNotification,
  max: number = NOTIFICATIONS_MAX,
): AppNotification[] {
  const result = [...list, next]
  while (result.length > max) {
    const transient = result.findIndex((n) => !n.persistent && n !== next)
    result.splice(transient >= 0 ? transient : 0, 1)
  }
  return result
}

export type { AppNotification, NotificationAction, NotificationInput, NotificationKind } from './model.ts'
export { pushNotification } from './model.ts'
export { dismiss, dismissAll, notify, notificationStore, useNotifications } from './store.ts'
export { NotificationCenter } from './notification-center.tsx'

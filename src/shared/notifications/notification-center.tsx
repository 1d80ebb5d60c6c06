/** Top-centre stack of notifications; polite live region so screen readers hear each one once. */
import { useLingui } from '@lingui/react/macro'
import type { AppNotification, NotificationKind } from './model.ts'
import { dismiss, useNotifications } from './store.ts'

const kindClass: Record<NotificationKind, string> = {
  success: 'border-emerald-600 bg-emerald-50 text-emerald-950',
  info: 'border-sky-600 bg-sky-50 text-sky-950',
  warning: 'border-amber-500 bg-amber-50 text-amber-950',
  error: 'border-red-600 bg-red-50 text-red-950',
}

export function NotificationCenter() {
  const items = useNotifications()
  return (
    <div
      aria-live="polite"
      aria-relevant="additions"
      className="pointer-events-none fixed inset-x-0 top-3 z-[100] flex flex-col items-center gap-2 px-3"
    >
      {items.map((n) => (
        <NotificationItem key={n.id} item={n} />
      ))}
    </div>
  )
}

function NotificationItem({ item }: { item: AppNotification }) {
  const { t } = useLingui()
  return (
    <div
      role={item.kind === 'error' || item.kind === 'warning' ? 'alert' : 'status'}
      data-kind={item.kind}
      data-testid="notification"
      className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-lg border-s-4 p-3 shadow-lg ${kindClass[item.kind]}`}
    >
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{item.title}</p>
        {item.message ? <p className="mt-0.5 text-sm break-words">{item.message}</p> : null}
        {item.quote ? (
          <p className="mt-0.5 text-xs break-words opacity-80" data-testid="notification-quote">
            <bdi>{item.quote}</bdi>
          </p>
        ) : null}
        {item.action ? (
          <button
            type="button"
            className="mt-2 rounded-md bg-brand-600 px-3 py-1 text-sm font-medium text-white hover:bg-brand-700"
            onClick={() => {
              item.action?.onClick()
              dismiss(item.id)
            }}
          >
            {item.action.label}
          </button>
        ) : null}
      </div>
      {item.persistent ? (
        <button
          type="button"
          aria-label={t`Close`}
          className="rounded p-1 text-current/70 hover:bg-black/5"
          onClick={() => dismiss(item.id)}
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
            <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
          </svg>
        </button>
      ) : null}
    </div>
  )
}

/**
 * Stack of notifications top-centre (docs/product-rules.md#constants-and-limits), below the app's header
 * (`--app-header-height`, the layout publishes it) and the top safe area, the newest first. It never reaches
 * the bottom of the screen, where the chat's composer, the wizard's Send and the bottom bars
 * (`--bulk-strip-height`) are: what does not fit above them scrolls inside the stack. Its height is published
 * (`--notices-height`): a field scrolled or focused into view stands below the notices (src/app/app.css). A
 * polite live region, so screen readers hear each one once.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import type { AppNotification, NotificationKind } from './model.ts'
import { dismiss, useNotifications } from './store.ts'
import { useHeightVariable } from '../ui/use-height-variable.ts'

const kindClass: Record<NotificationKind, string> = {
  success: 'border-emerald-600 bg-emerald-50 text-emerald-950',
  info: 'border-sky-600 bg-sky-50 text-sky-950',
  warning: 'border-amber-500 bg-amber-50 text-amber-950',
  error: 'border-red-600 bg-red-50 text-red-950',
}

export function NotificationCenter() {
  const items = useNotifications()
  const ref = useHeightVariable<HTMLDivElement>('--notices-height')
  return (
    <div
      ref={ref}
      aria-live="polite"
      aria-relevant="additions"
      data-testid="notification-stack"
      className="pointer-events-none fixed inset-x-0 top-[calc(var(--app-header-height,0px)+env(safe-area-inset-top)+0.5rem)] z-[100] flex max-h-[calc(100dvh-var(--app-header-height,0px)-env(safe-area-inset-top)-env(safe-area-inset-bottom)-var(--bulk-strip-height,0px)-var(--notices-bottom-clear))] flex-col items-center gap-2 overflow-y-auto px-3 [--notices-bottom-clear:12rem] short:[--notices-bottom-clear:8rem]"
    >
      {[...items].reverse().map((n) => (
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
        {item.message || item.subject ? (
          <p className="mt-0.5 text-sm break-words">
            {item.subject ? (
              <>
                <bdi data-testid="notification-subject">{item.subject}</bdi>
                {': '}
              </>
            ) : null}
            {item.message}
          </p>
        ) : null}
        {item.detail ? (
          <p className="mt-1 text-xs break-words opacity-80" data-testid="notification-detail">
            <Trans>
              Facebook says: <bdi>{item.detail}</bdi>
            </Trans>
          </p>
        ) : null}
        {item.action ? (
          <button
            type="button"
            className="mt-2 min-h-11 rounded-md bg-brand-600 px-3 py-1 text-sm font-medium text-white hover:bg-brand-700"
            onClick={() => {
              item.action?.onClick()
              dismiss(item.id)
            }}
          >
            {item.action.label}
          </button>
        ) : null}
      </div>
      {/* Every notification can be closed: none waits out its time over what the user needs. */}
      <button
        type="button"
        aria-label={t`Close`}
        className="-my-2 -me-2 grid min-h-11 min-w-11 shrink-0 place-items-center rounded text-current/70 hover:bg-black/5"
        onClick={() => dismiss(item.id)}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
          <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
        </svg>
      </button>
    </div>
  )
}

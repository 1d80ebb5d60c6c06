/**
 * What a screen shows when it cannot be drawn: its code did not arrive (a connection cut while a part of the
 * app was being fetched) or it failed. The owner is told in their language and can try again: a part that
 * did not arrive is fetched again with the page, anything else is drawn again. Nothing the owner was doing is
 * lost: drafts, the outbox and bulk jobs live in the device's database.
 */
import { Trans } from '@lingui/react/macro'
import { useEffect } from 'react'

/** A dynamic import whose file did not arrive: the message differs per browser. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error)
  return /dynamically imported module|module script|Loading chunk/i.test(
    message,
  )
}

export function ScreenError({ error, reset }: { error: unknown; reset: () => void }) {
  const missingCode = isChunkLoadError(error)
  useEffect(() => console.error('a screen could not be drawn', error), [error])
  return (
    <div
      role="alert"
      data-testid="screen-error"
      className="grid min-h-[60dvh] place-items-center p-6 text-center"
    >
      <div className="max-w-sm">
        <h1 className="text-lg font-semibold text-slate-900">
          <Trans>Something went wrong</Trans>
        </h1>
        <p className="mt-2 text-sm text-slate-600">
          {missingCode ? (
            <Trans>This screen could not be loaded. Check your connection, then try again.</Trans>
          ) : (
            <Trans>This screen could not be shown. Try again; your messages and sends are kept.</Trans>
          )}
        </p>
        <button
          type="button"
          data-testid="screen-error-retry"
          onClick={() => (missingCode ? window.location.reload() : reset())}
          className="mt-4 min-h-11 min-w-11 rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
        >
          <Trans>Try again</Trans>
        </button>
      </div>
    </div>
  )
}

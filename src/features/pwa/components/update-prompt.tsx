/** "A new version is available" with "Reload": the new service worker takes over only when the user agrees. */
import { useSyncExternalStore } from 'react'
import { Trans } from '@lingui/react/macro'
import type { UpdateStore } from '../model/update-store.ts'
import { usePwaWords } from '../model/use-pwa-words.ts'

/** `store` is the registration's (model/update-store.ts), handed over so it is not a chunk of its own. */
export function UpdatePrompt({ store }: { store: UpdateStore }) {
  const { waiting, deferred } = useSyncExternalStore(store.subscribe, store.get)
  const words = usePwaWords(waiting)
  if (!waiting || !words) return null
  return (
    <div
      role="status"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-md flex-wrap items-center gap-3 rounded-lg bg-slate-900 px-4 py-3 text-sm text-white shadow-lg"
    >
      <p className="grow text-start">
        <Trans>A new version is available</Trans>
        {deferred && (
          <span className="block text-slate-300">
            <Trans>Messages are being sent: the app will reload when sending stops.</Trans>
          </span>
        )}
      </p>
      <button
        type="button"
        disabled={deferred}
        onClick={() => void store.accept()}
        className="rounded-md bg-white px-3 py-1.5 font-medium text-brand-700 hover:bg-brand-50 disabled:opacity-60"
      >
        <Trans>Reload</Trans>
      </button>
      {!deferred && (
        <button
          type="button"
          onClick={() => store.set({ waiting: false })}
          className="rounded-md px-2 py-1.5 text-slate-300 hover:text-white"
        >
          <Trans>Later</Trans>
        </button>
      )}
    </div>
  )
}

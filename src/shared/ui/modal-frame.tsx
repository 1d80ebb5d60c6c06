/**
 * One modal: Headless UI Dialog (focus trapped and returned, Escape closes it) with a titled panel.
 * `stacked` after the panel lets a stacked modal render inside this one, so only the top one is active.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { type ReactNode, useCallback, useState } from 'react'
import { useLingui } from '@lingui/react/macro'

interface ModalFrameProps {
  title: ReactNode
  onClose: () => void
  children: ReactNode
  stacked?: ReactNode
  wide?: boolean
}

export function ModalFrame({ title, onClose, children, stacked, wide = false }: ModalFrameProps) {
  const { t } = useLingui()
  // The dialogs take their order from the order they mount in: a stack opened at once (a link, a reload with
  // `?modal=user.addons`) would mount the inner one first and draw it under this one, with Escape for this
  // one. The stacked modal mounts once this panel is in the page, so it is drawn, focused and closed first.
  const [shown, setShown] = useState(false)
  const panelRef = useCallback((panel: HTMLElement | null) => {
    if (panel) setShown(true)
  }, [])
  return (
    <Dialog open onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-end justify-center overflow-y-auto p-0 sm:items-center sm:p-4">
        <DialogPanel
          ref={panelRef}
          data-testid="modal"
          className={`relative max-h-[92dvh] w-full overflow-y-auto rounded-t-2xl bg-white p-5 shadow-xl sm:rounded-2xl sm:p-6 ${wide ? 'sm:max-w-5xl' : 'sm:max-w-lg'}`}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
            <button
              type="button"
              onClick={onClose}
              aria-label={t`Close`}
              className="-m-2.5 grid size-11 shrink-0 place-items-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
                <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
              </svg>
            </button>
          </div>
          {children}
        </DialogPanel>
        {shown ? stacked : null}
      </div>
    </Dialog>
  )
}

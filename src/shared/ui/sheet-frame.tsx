/**
 * One sheet over a chat or a page: a Headless UI Dialog (focus trapped and returned, Escape closes it) that
 * rises from the bottom on a phone and stands centred on a wider screen, with its title first. The sheet's own
 * actions close it; a tap outside does too.
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import type { ReactNode } from 'react'

interface SheetFrameProps {
  testId: string
  title: ReactNode
  onClose: () => void
  children: ReactNode
  /** A wider sheet on a wide screen (a list with its editor). */
  wide?: boolean
}

export function SheetFrame({ testId, title, onClose, children, wide = false }: SheetFrameProps) {
  return (
    <Dialog open onClose={onClose} className="relative z-40">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-4">
        <DialogPanel
          data-testid={testId}
          className={`max-h-[92dvh] w-full space-y-3 overflow-y-auto rounded-t-2xl bg-white p-4 text-sm text-slate-700 shadow-xl sm:rounded-2xl ${wide ? 'sm:max-w-lg' : 'sm:max-w-md'}`}
        >
          <DialogTitle className="text-base font-semibold text-slate-900">{title}</DialogTitle>
          {children}
        </DialogPanel>
      </div>
    </Dialog>
  )
}

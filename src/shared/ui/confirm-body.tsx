/**
 * The body of a confirmation asked once before a destructive action: what will happen, in words, then the
 * safe choice and the action itself (each a thumb's target). The action's button shows it is under way and
 * the modal closes when it is done.
 */
import type { ReactNode } from 'react'
import { useState } from 'react'
import { buttonDanger, buttonSecondary } from './button-styles.ts'

interface ConfirmBodyProps {
  testId: string
  /** What happens, in a sentence or two. */
  children: ReactNode
  keepLabel: ReactNode
  confirmLabel: ReactNode
  onKeep: () => void
  /** Does the action; the modal is closed by the caller once it resolves. */
  onConfirm: () => Promise<void>
}

export function ConfirmBody({
  testId,
  children,
  keepLabel,
  confirmLabel,
  onKeep,
  onConfirm,
}: ConfirmBodyProps) {
  const [busy, setBusy] = useState(false)
  return (
    <div className="space-y-4 text-sm text-slate-700" data-testid={testId}>
      {/* Line height `normal` is each script's own: Nastaliq (Urdu) needs far more than Latin. */}
      <div className="space-y-2 leading-[normal]">{children}</div>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={onKeep} data-testid={`${testId}-keep`}>
          {keepLabel}
        </button>
        <button
          type="button"
          className={buttonDanger}
          disabled={busy}
          data-testid={`${testId}-yes`}
          onClick={() => {
            setBusy(true)
            void onConfirm().finally(() => setBusy(false))
          }}
        >
          {confirmLabel}
        </button>
      </div>
    </div>
  )
}

/** The mark under the page's own message: one check sent, two delivered, two filled read. */
import { useLingui } from '@lingui/react/macro'
import type { ReceiptState } from '../../../shared/live/receipts.ts'

const CHECK = 'M1.5 8.5 4.5 11.5 10.5 4.5'
const SECOND = 'M7.5 11.5 13.5 4.5'

export function ReceiptMark({ state }: { state: ReceiptState }) {
  const { t } = useLingui()
  const label = state === 'read' ? t`Read` : state === 'delivered' ? t`Delivered` : t`Sent`
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="receipt-mark"
      data-receipt={state}
      viewBox="0 0 15 16"
      className={`inline-block size-4 shrink-0 ${state === 'read' ? 'text-sky-200' : 'text-brand-100'}`}
      fill="none"
      stroke="currentColor"
      strokeWidth={state === 'read' ? 2.25 : 1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <title>{label}</title>
      <path d={CHECK} />
      {state === 'sent' ? null : <path d={SECOND} />}
    </svg>
  )
}

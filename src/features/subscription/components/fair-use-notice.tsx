/**
 * Blocked unlimited subscribers (docs/product-rules.md#unlimited-and-fair-use): must buy a messages package.
 */
import { Trans } from '@lingui/react/macro'
import { buttonPrimary } from '../../../shared/ui/button-styles.ts'
import { openModal } from '../../../shared/ui/modal-stack.ts'

export function FairUseNotice() {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-900 compact-inbox:hidden"
      data-testid="fair-use-notice"
    >
      <p className="min-w-0 flex-1">
        <Trans>
          Your account has been detected violating our fair use policy... To keep sending, please purchase a
          messages package.
        </Trans>
      </p>
      <button type="button" className={buttonPrimary} onClick={() => openModal('addons')}>
        <Trans>Buy messages</Trans>
      </button>
    </div>
  )
}

/**
 * Offers branded messages when few are left (docs/product-rules.md#branded-messages); the confirmation is its
 * own modal.
 */
import { Trans } from '@lingui/react/macro'
import { useState } from 'react'
import { setSubscription, useSession } from '../../../shared/session/store.ts'
import { buttonPrimary, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { closeModal, openModal } from '../../../shared/ui/modal-stack.ts'
import { confirmBrandedMessages } from '../api/confirm-branded.ts'

export function BrandedBanner() {
  return (
    <div
      className="flex flex-wrap items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950"
      data-testid="branded-banner"
    >
      <p className="min-w-0 flex-1">
        <Trans>
          You are running out of messages. Authorise branded messages to keep sending: a short Pagecast note
          is added once your quota runs out.
        </Trans>
      </p>
      <button type="button" className={buttonPrimary} onClick={() => openModal('confirm-branded')}>
        <Trans>Authorise branded messages</Trans>
      </button>
    </div>
  )
}

export function ConfirmBrandedBody() {
  const { subscription } = useSession()
  const [busy, setBusy] = useState(false)
  async function onConfirm() {
    setBusy(true)
    try {
      await confirmBrandedMessages()
      if (subscription) setSubscription({ ...subscription, use_branded_messages: true })
      closeModal('confirm-branded')
    } catch {
      // The API client has already shown what went wrong.
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="space-y-4 text-sm text-slate-700">
      <p>
        <Trans>
          If your messages run out in the middle of a bulk send, the rest of that send still goes out, with a
          short note saying it was sent with Pagecast. A new send needs messages left. Do you want to
          authorise branded messages?
        </Trans>
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={() => closeModal('confirm-branded')}>
          <Trans>Not now</Trans>
        </button>
        <button type="button" className={buttonPrimary} disabled={busy} onClick={onConfirm}>
          {busy ? <Trans>Loading...</Trans> : <Trans>Yes, authorise</Trans>}
        </button>
      </div>
    </div>
  )
}

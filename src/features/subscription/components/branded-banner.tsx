/**
 * Offers branded messages when few are left (docs/product-rules.md#branded-messages); the confirmation is its
 * own modal.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { setSubscription, useSession } from '../../../shared/session/store.ts'
import { buttonPrimary, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { closeModal, openModal } from '../../../shared/ui/modal-stack.ts'
import { useBannerDismissal } from '../api/banner-dismissal.ts'
import { confirmBrandedMessages } from '../api/confirm-branded.ts'

/**
 * One line of words with its button (the words on a line of their own on a phone), put away for the session
 * by its ×. It says what authorising does, as the confirmation does: a send goes on past the allowance. In a
 * page's inbox on a phone it steps aside (the header's counter tells the allowance there, and the wizard's
 * Send the refusal); it stands on home and on every other screen.
 */
export function BrandedBanner() {
  const { t } = useLingui()
  const [away, putAway] = useBannerDismissal()
  if (away) return null
  return (
    <div
      className="flex shrink-0 flex-wrap items-center gap-x-2 border-b border-amber-200 bg-amber-50 px-3 text-amber-950 compact-inbox:hidden"
      data-testid="branded-banner"
    >
      <p data-testid="branded-banner-text" className="basis-full pt-1 text-xs sm:flex-1 sm:basis-0 sm:py-1 sm:text-sm">
        <Trans>When your messages run out mid-send, the rest go out with a Pagecast footer.</Trans>
      </p>
      {/* On a phone the button takes the line beside the ×, its words on two lines when they must. */}
      <button
        type="button"
        className={`${buttonPrimary} my-1 min-w-0 flex-1 py-1 leading-tight sm:flex-none`}
        onClick={() => openModal('confirm-branded')}
      >
        <Trans>Authorise branded messages</Trans>
      </button>
      <button
        type="button"
        data-testid="branded-banner-dismiss"
        aria-label={t`Not now`}
        title={t`Not now`}
        onClick={putAway}
        className="grid size-11 shrink-0 place-items-center rounded-md text-lg hover:bg-amber-100"
      >
        <span aria-hidden="true">×</span>
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

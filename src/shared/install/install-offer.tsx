/**
 * "Install app": a card on home (offered unasked, from the second visit, until dismissed) and a button in the
 * account menu (always there while the app can be installed). On iOS Safari it shows how to add the app to
 * the home screen, since only the owner can do it there.
 */
import { Trans } from '@lingui/react/macro'
import { useState } from 'react'
import { buttonPrimary, buttonSecondary } from '../ui/button-styles.ts'
import { dismissInstallOffer, promptInstall, useInstallOffer } from './install-prompt.ts'

function IosSteps() {
  return (
    <p data-testid="install-ios-steps" className="text-sm text-slate-700">
      <Trans>To install Pagecast, tap Share in Safari, then “Add to Home Screen”.</Trans>
    </p>
  )
}

export function InstallButton() {
  const { way } = useInstallOffer()
  const [steps, setSteps] = useState(false)
  if (way === 'none') return null
  return (
    <>
      <button
        type="button"
        data-testid="install-app"
        className={buttonSecondary}
        onClick={() => (way === 'prompt' ? void promptInstall() : setSteps(true))}
      >
        <Trans>Install app</Trans>
      </button>
      {steps ? <IosSteps /> : null}
    </>
  )
}

export function InstallCard() {
  const { way, offer } = useInstallOffer()
  if (!offer) return null
  return (
    <section
      data-testid="install-offer"
      className="mx-auto mt-4 flex w-full max-w-6xl flex-wrap items-center gap-3 px-4 sm:px-6"
    >
      <div className="flex w-full flex-wrap items-center gap-3 rounded-xl bg-brand-50 p-4 ring-1 ring-slate-200">
        <div className="min-w-0 flex-1 basis-60">
          <p className="text-sm font-medium text-slate-900">
            <Trans>
              Install Pagecast on this device: it opens from your home screen and works on a weak connection.
            </Trans>
          </p>
          {way === 'ios' ? <IosSteps /> : null}
        </div>
        {way === 'prompt' ? (
          <button
            type="button"
            data-testid="install-app"
            className={buttonPrimary}
            onClick={() => void promptInstall()}
          >
            <Trans>Install app</Trans>
          </button>
        ) : null}
        <button
          type="button"
          data-testid="install-dismiss"
          className={buttonSecondary}
          onClick={dismissInstallOffer}
        >
          <Trans>Not now</Trans>
        </button>
      </div>
    </section>
  )
}

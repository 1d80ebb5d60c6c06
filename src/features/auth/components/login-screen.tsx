/**
 * The only screen a logged-out visitor sees, on any route (docs/product-rules.md#login-screen), and the
 * login-fail state.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { chooseLocale } from '../../../i18n/activate.ts'
import { loginWithSdk } from '../../../shared/session/actions.ts'
import { useSession } from '../../../shared/session/store.ts'
import { LanguagePicker } from '../../../shared/ui/language-picker.tsx'
import { BrandMark } from '../../../shared/ui/brand-mark.tsx'
import { useFirstScreenMark } from '../../../shared/ui/first-screen.ts'

export function LoginScreen() {
  const { t } = useLingui()
  const session = useSession()
  const [busy, setBusy] = useState(false)
  const failed = session.status === 'login_failed'
  useFirstScreenMark()

  function onLogin() {
    setBusy(true)
    void loginWithSdk().finally(() => setBusy(false))
  }

  return (
    <main className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50 to-white">
      <div className="flex justify-end p-4">
        <LanguagePicker onChoose={chooseLocale} />
      </div>
      <div className="mx-auto flex w-full max-w-md flex-1 flex-col items-center justify-center px-6 pb-16 text-center">
        <BrandMark className="size-16" />
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-slate-900">
          <Trans>Talk to every customer who writes to your page</Trans>
        </h1>
        <p className="mt-4 text-base text-slate-600">
          <Trans>
            Pagecast brings your page's conversations into one inbox and sends one message to many customers
            at once, safely paced and within Facebook's rules.
          </Trans>
        </p>
        {failed ? (
          <div
            role="alert"
            className="mt-6 w-full rounded-lg border-s-4 border-red-600 bg-red-50 p-4 text-start text-sm text-red-900"
          >
            <p className="font-semibold">
              <Trans>We could not sign you in</Trans>
            </p>
            <p className="mt-1">
              {session.failReason === 'declined'
                ? t`Pagecast needs every permission it asks for. Please continue again and keep all permissions checked.`
                : session.failReason === 'server'
                  ? t`The sign-in could not be completed. Please try again in a moment.`
                  : t`The login was cancelled or not completed. Please try again.`}
            </p>
          </div>
        ) : null}
        <button
          type="button"
          onClick={onLogin}
          disabled={busy}
          data-testid="login-button"
          className="mt-8 inline-flex w-full items-center justify-center gap-3 rounded-xl bg-[#145dbf] px-5 py-3 text-base font-semibold text-white shadow-md hover:bg-[#114fa3] disabled:opacity-70"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor">
            <path d="M24 12a12 12 0 1 0-13.9 11.9v-8.4h-3V12h3V9.4c0-3 1.8-4.7 4.5-4.7 1.3 0 2.7.2 2.7.2v3h-1.5c-1.5 0-2 .9-2 1.9V12h3.4l-.5 3.5h-2.9v8.4A12 12 0 0 0 24 12Z" />
          </svg>
          <Trans>Continue with Facebook</Trans>
        </button>
      </div>
    </main>
  )
}

/** Shown instead of everything else until the terms are accepted (docs/product-rules.md#terms-gate). */
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useState } from 'react'
import { formatLongDate } from '../../../core/format/dates.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { useFirstScreenMark } from '../../../shared/ui/first-screen.ts'
import { buttonPrimary } from '../../../shared/ui/button-styles.ts'
import { acceptTerms, termsQueryOptions } from '../api/terms.ts'

const TermsMarkdown = lazy(() => import('./terms-markdown.tsx'))

export function TermsGate({ onAccepted = () => location.reload() }: { onAccepted?: () => void }) {
  const { t, i18n } = useLingui()
  const terms = useQuery(termsQueryOptions())
  const [busy, setBusy] = useState(false)
  useFirstScreenMark()

  async function onAccept() {
    setBusy(true)
    try {
      await acceptTerms()
      onAccepted()
    } catch {
      // A failed accept only clears the busy state (docs/product-rules.md#terms-acceptance).
    } finally {
      setBusy(false)
    }
  }

  return (
    <main className="min-h-dvh bg-slate-50 px-4 py-8 sm:py-12" data-testid="terms-gate">
      <div className="mx-auto w-full max-w-[640px] rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>Terms and conditions</Trans>
        </h1>
        {/* The line keeps its place while the terms load. */}
        <p className="mt-1 text-sm text-slate-500">
          {terms.data ? (
            <Trans>Last updated {formatLongDate(terms.data.created_at, i18n.locale)}</Trans>
          ) : (
            '\u00a0'
          )}
        </p>
        <div
          tabIndex={0}
          aria-label={t`Terms and conditions`}
          className="mt-5 h-[60vh] max-h-[60vh] overflow-y-auto rounded-lg border border-slate-200 p-4"
          data-testid="terms-box"
        >
          {terms.data ? (
            <Suspense fallback={<LoadingDots />}>
              <TermsMarkdown content={terms.data.content} />
            </Suspense>
          ) : (
            <LoadingDots />
          )}
        </div>
        <p className="mt-5 text-sm text-slate-700">
          <Trans>I have read and accept the terms and conditions of use.</Trans>
        </p>
        <button
          type="button"
          className={`${buttonPrimary} mt-4 w-full sm:w-auto`}
          // The terms are accepted once they are shown; their box keeps its height as they arrive, so the
          // button does not move under a finger.
          disabled={busy || !terms.data}
          onClick={onAccept}
          data-testid="accept-terms"
        >
          {busy ? <Trans>Loading...</Trans> : <Trans>Accept</Trans>}
        </button>
      </div>
    </main>
  )
}

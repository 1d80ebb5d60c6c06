/**
 * Asked before every sign-out: it deletes what Pagecast keeps on this device, and names the work it would lose
 * (replies still in the outbox exist only on this device; a bulk send stops here (the server keeps its record, so it can be resumed after signing in again, unless its
 * recipient list never reached the server).
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { type UnsentWork, unsentWork } from '../../../shared/session/device-data.ts'
import { formatNumber } from '../../../core/format/numbers.ts'
import { useOnline } from '../../../shared/network/use-online.ts'
import { buttonDanger, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { LoadingDots } from '../../../shared/ui/loading-dots.tsx'
import { closeModal } from '../../../shared/ui/modal-stack.ts'

export function SignOutConfirmBody({ onConfirm }: { onConfirm: () => Promise<void> }) {
  const { i18n } = useLingui()
  const [work, setWork] = useState<UnsentWork>()
  const [busy, setBusy] = useState(false)
  const online = useOnline()
  useEffect(() => {
    void unsentWork().then(setWork, () => setWork({ replies: 0, bulkJobs: 0, bulkJobsNotOnServer: 0 }))
  }, [])
  if (!work) return <LoadingDots />
  const replies = formatNumber(work.replies, i18n.locale)
  const resumableJobs = online ? work.bulkJobs : work.bulkJobs - work.bulkJobsNotOnServer
  const resumable = formatNumber(resumableJobs, i18n.locale)
  const lostJobs = formatNumber(work.bulkJobs - resumableJobs, i18n.locale)
  return (
    <div className="space-y-4 text-sm text-slate-700" data-testid="sign-out-confirm">
      <p>
        <Trans>Signing out deletes everything Pagecast keeps on this device.</Trans>
      </p>
      <ul className="list-disc space-y-2 ps-5">
        {work.replies > 0 ? (
          <li>
            <Trans>Replies not sent yet: {replies}. They exist only on this device and will be lost.</Trans>
          </li>
        ) : null}
        {resumableJobs > 0 ? (
          <li>
            <Trans>
              Bulk sends not finished: {resumable}. They stop now; the server keeps them, so you can resume
              them from their card after you sign in again with this account.
            </Trans>
          </li>
        ) : null}
        {work.bulkJobs > resumableJobs ? (
          <li>
            <Trans>
              Bulk sends that have not reached the server yet: {lostJobs}. You are offline, so they will be
              lost.
            </Trans>
          </li>
        ) : null}
      </ul>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={() => closeModal('confirm-sign-out')}>
          <Trans>Stay signed in</Trans>
        </button>
        <button
          type="button"
          className={buttonDanger}
          disabled={busy}
          onClick={() => {
            setBusy(true)
            void onConfirm().finally(() => setBusy(false))
          }}
        >
          {busy ? <Trans>Signing out…</Trans> : <Trans>Sign out and delete</Trans>}
        </button>
      </div>
    </div>
  )
}

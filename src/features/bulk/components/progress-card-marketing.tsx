/**
 * The marketing parts of a bulk job's card: its standard and marketing counts with the campaign's spend, and
 * the Resume of a job a marketing reason stopped. Their texts are in the marketing catalog.
 */
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { MarketingResumeFailed, resumeMarketingJob } from '../api/job-controls.ts'
import { marketingReasonText } from '../model/marketing-error.ts'
import { networkClassText, networkRefusalOf } from '../model/network-error.ts'

/** A network refusal by its class, any other reason by its marketing words. */
const networkClassOrReason = (code: string) => {
  const network = networkRefusalOf(code)
  return network ? networkClassText(network.kind) : marketingReasonText(code)
}

export function MarketingResume({
  jobId,
  stopCode,
  stopDetail,
  className: small,
}: {
  jobId: string
  stopCode: string | undefined
  stopDetail: string | undefined
  className: string
}) {
  const { i18n, t } = useLingui()
  const [busy, setBusy] = useState(false)
  const [resumeError, setResumeError] = useState<string>()
  const [networkText, setNetworkText] = useState<string>()
  const resumeMarketing = async () => {
    setBusy(true)
    setResumeError(undefined)
    setNetworkText(undefined)
    try {
      await resumeMarketingJob(jobId)
    } catch (err) {
      setResumeError(
        err instanceof MarketingResumeFailed ? resumeFailureText(err.code) : resumeFailureText(''),
      )
      if (err instanceof MarketingResumeFailed && networkRefusalOf(err.code)) setNetworkText(err.networkText)
    } finally {
      setBusy(false)
    }
  }
  const resumeFailureText = (code: string): string =>
    code === 'no_page_token'
      ? t`This page has no access right now. Sign in again, then resume.`
      : code === 'no_connection'
        ? t`The server could not be reached. Try again when you are online.`
        : code === 'no_campaign'
          ? t`This marketing send never got its campaign, so it cannot go on. Start a new send.`
          : i18n._(networkClassOrReason(code))
  return (
    <div className="mt-2 flex flex-col items-start gap-1 text-xs" data-testid="bulk-card-marketing-resume">
      {/* A paused marketing job (found on the server) needs no fix: its state line says what to do. */}
      {stopCode !== 'marketing' ? null : (
        <p className="text-slate-600">
          {stopDetail === 'daily_budget_reached' ? (
            <Trans>
              Today&apos;s budget is spent: resume tomorrow, or raise the daily budget in your ad account and
              resume now. The send goes on where it stopped.
            </Trans>
          ) : stopDetail === 'budget_spent' ? (
            <Trans>
              Raise the campaign&apos;s budget in your ad account, then resume: the send goes on where it
              stopped.
            </Trans>
          ) : (
            <Trans>
              Once you have fixed this in your ad account, resume: the send goes on where it stopped.
            </Trans>
          )}
        </p>
      )}
      <button
        type="button"
        className={small}
        disabled={busy}
        onClick={() => void resumeMarketing()}
        data-testid="bulk-card-resume-marketing"
      >
        <Trans>Resume</Trans>
      </button>
      {resumeError ? (
        <p role="alert" className="text-red-700" data-testid="bulk-card-resume-error">
          {resumeError}
          {networkText ? (
            <>
              {' '}
              <bdi data-testid="bulk-card-network-text">{networkText}</bdi>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  )
}

export function MarketingLine(props: {
  standard: string
  marketing: string
  spent: string | undefined
  budget: string
}) {
  const { standard, marketing, spent, budget } = props
  return (
    <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-600">
      <span data-testid="bulk-card-ways">
        <Trans>
          {standard} standard · {marketing} marketing
        </Trans>
      </span>
      <span data-testid="bulk-card-spend">
        {spent === undefined ? (
          <Trans>Budget {budget}</Trans>
        ) : (
          <Trans>
            {spent} spent of {budget}
          </Trans>
        )}
      </span>
    </p>
  )
}

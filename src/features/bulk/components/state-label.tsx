/** The state of a job in words, with the reason when it stopped. */
import { Trans, useLingui } from '@lingui/react/macro'
import { NO_PAGE_TOKEN } from '../../../device/bulk/protocol.ts'
import type { CardJob } from '../model/card.ts'
import { marketingReasonText } from '../model/marketing-error.ts'
import { networkClassText, networkRefusalOf } from '../model/network-error.ts'

export function StateLabel({
  job,
  stopCode,
  stopDetail,
}: {
  job: CardJob
  stopCode?: string
  stopDetail?: string
}) {
  return (
    <span className="font-medium text-slate-600" data-testid="bulk-card-state">
      <StateText state={job.state} stopCode={stopCode} stopDetail={stopDetail} remote={job.remote} />
      {stopDetail && stopCode !== MARKETING ? (
        <span className="ms-1 font-normal text-slate-500">
          (<bdi>{stopDetail}</bdi>)
        </span>
      ) : null}
    </span>
  )
}

/** Stop reasons `marketing:<name>`: the marketing error's name says why. */
const MARKETING = 'marketing'

export function StateText({
  state,
  stopCode,
  stopDetail,
  remote,
}: {
  state: CardJob['state']
  stopCode?: string | undefined
  stopDetail?: string | undefined
  /** The job is held by another device (its own card there has the controls). */
  remote?: CardJob['remote']
}) {
  switch (state) {
    case 'queued':
    case 'running':
      return remote === 'device' ? (
        <span data-testid="bulk-card-sender">
          <Trans>Sending on another device</Trans>
        </span>
      ) : (
        <>
          <Trans>Sending</Trans>{' '}
          <span className="font-normal text-slate-500" data-testid="bulk-card-sender">
            <Trans>on this device</Trans>
          </span>
        </>
      )
    case 'on_server':
      return (
        <span data-testid="bulk-card-sender">
          <Trans>Sending on the server</Trans>
        </span>
      )
    case 'waiting_connection':
      return <Trans>Waiting for connection</Trans>
    case 'rate_limited':
      return <Trans>Rate limited, will retry</Trans>
    case 'needs_signin':
      return stopCode === NO_PAGE_TOKEN ? (
        <Trans>Reconnect this page to continue</Trans>
      ) : (
        <Trans>Needs sign-in</Trans>
      )
    case 'paused':
      return stopCode === 'resumed_from_server' ? (
        <Trans>Found on the server: resume to finish</Trans>
      ) : (
        <Trans>Paused</Trans>
      )
    case 'finished':
      return <Trans>Finished</Trans>
    case 'stopped':
      return stopCode === MARKETING ? <MarketingStop name={stopDetail ?? ''} /> : <StopText code={stopCode} />
  }
}

function StopText({ code }: { code?: string }) {
  switch (code) {
    case 'no_messages':
      return <Trans>Stopped: no messages left</Trans>
    case 'cancelled':
      return <Trans>Cancelled</Trans>
    case 'page_blocked':
      return <Trans>Stopped: the page is blocked from messaging</Trans>
    case 'config':
      return <Trans>Stopped: Facebook refused the message</Trans>
    default:
      return <Trans>Stopped</Trans>
  }
}

function MarketingStop({ name }: { name: string }) {
  const { i18n } = useLingui()
  const network = networkRefusalOf(name)
  const reason = i18n._(network ? networkClassText(network.kind) : marketingReasonText(name))
  return (
    <span data-testid="bulk-card-marketing-stop">
      <Trans>Stopped: {reason}</Trans>
      {network?.text ? (
        <>
          {' '}
          <bdi className="font-normal text-slate-500" data-testid="bulk-card-network-text">
            {network.text}
          </bdi>
        </>
      ) : null}
    </span>
  )
}

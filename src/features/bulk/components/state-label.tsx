/** The state of a job in words, with the reason when it stopped. */
import { Trans } from '@lingui/react/macro'
import { NO_PAGE_TOKEN } from '../../../shared/bulk/protocol.ts'
import type { CardJob } from '../model/card.ts'

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
      <StateText state={job.state} stopCode={stopCode} />
      {stopDetail ? <span className="ms-1 font-normal text-slate-500">({stopDetail})</span> : null}
    </span>
  )
}

export function StateText({ state, stopCode }: { state: CardJob['state']; stopCode?: string }) {
  switch (state) {
    case 'queued':
    case 'running':
      return (
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
      return <StopText code={stopCode} />
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
      return <Trans>Stopped: the network refused the request</Trans>
    default:
      return <Trans>Stopped</Trans>
  }
}

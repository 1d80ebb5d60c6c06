/** One sentence about the messaging window for this customer, in the user's language. */
import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useState } from 'react'
import { SIDE_BY_SIDE, useMediaQuery } from '../../../shared/ui/use-media-query.ts'
import { formatDateTime } from '../../../core/format/index.ts'
import type { WindowStatus } from '../../../core/policy/window.ts'

export function WindowNotice({ status, inline = false }: { status: WindowStatus; inline?: boolean }) {
  const { i18n } = useLingui()
  const until = status.closesAt ? formatDateTime(status.closesAt, i18n.locale, 'medium') : ''
  const tone = status.canSend ? 'text-gray-600' : 'text-amber-800'
  return (
    <span
      data-testid="window-notice"
      data-reason={status.reason}
      className={`${inline ? 'inline' : 'block'} text-xs ${tone}`}
    >
      {status.reason === 'standard' ? (
        <Trans>Inside the 24-hour window: you can reply until {until}.</Trans>
      ) : status.reason === 'human_agent' ? (
        <Trans>
          More than 24 hours since the customer's last message: your reply goes as a personal answer (human
          agent), possible until {until}.
        </Trans>
      ) : status.reason === 'needs_human_agent' ? (
        <Trans>
          You can't reply: more than 24 hours have passed since the customer's last message. Replies within 7
          days need the human agent permission.
        </Trans>
      ) : status.reason === 'closed' ? (
        <Trans>You can't reply: more than 7 days have passed since the customer's last message.</Trans>
      ) : status.reason === 'no_customer_message' ? (
        <Trans>You can't reply yet: the customer has not written to the page recently.</Trans>
      ) : null}
    </span>
  )
}

/**
 * The reply box's notes: offline, the trial's watermark, the messaging window. On a phone they take one line,
 * cut, and the whole line is the button that shows them all ("more", "less"), so the conversation keeps its
 * room; on a wide screen they are shown whole.
 */
export function ComposerNotes({
  status,
  offline,
  watermark,
}: {
  status: WindowStatus
  offline?: ReactNode
  watermark?: ReactNode
}) {
  const wide = useMediaQuery(SIDE_BY_SIDE)
  const [open, setOpen] = useState(false)
  const whole = wide || open
  const line = whole ? 'block' : 'inline'
  const notes = (
    <>
      {offline ? (
        <span data-testid="composer-offline" className={`${line} text-xs text-gray-600`}>
          {offline}{' '}
        </span>
      ) : null}
      {watermark ? (
        <span data-testid="watermark-warning" className={`${line} text-xs text-amber-800`}>
          {watermark}{' '}
        </span>
      ) : null}
      <WindowNotice status={status} inline={!whole} />
    </>
  )
  // The legacy policy has nothing to say about a window: alone, its empty note takes no line.
  const nothing = status.reason === 'legacy' && !offline && !watermark
  if (wide || nothing) return <div className="flex flex-col gap-1">{notes}</div>
  return (
    <button
      type="button"
      aria-expanded={open}
      data-testid="composer-notes-toggle"
      onClick={() => setOpen(!open)}
      className="flex min-h-11 w-full min-w-0 items-center gap-2 text-start"
    >
      <span
        className={`min-w-0 flex-1 ${open ? 'flex flex-col gap-1' : 'truncate'}`}
        {...(open ? {} : { 'data-truncate': 'folded notes: "more" shows them whole' })}
      >
        {notes}
      </span>
      <span className="shrink-0 text-xs font-medium text-brand-700 underline">
        {open ? <Trans>less</Trans> : <Trans>more</Trans>}
      </span>
    </button>
  )
}

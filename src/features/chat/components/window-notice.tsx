/** One sentence about the messaging window for this customer, in the user's language. */
import { Trans, useLingui } from '@lingui/react/macro'
import { formatDateTime } from '../../../shared/format/index.ts'
import type { WindowStatus } from '../../../shared/policy/window.ts'

export function WindowNotice({ status }: { status: WindowStatus }) {
  const { i18n } = useLingui()
  const until = status.closesAt ? formatDateTime(status.closesAt, i18n.locale, 'medium') : ''
  const tone = status.canSend ? 'text-gray-600' : 'text-amber-800'
  return (
    <p data-testid="window-notice" data-reason={status.reason} className={`text-xs ${tone}`}>
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
    </p>
  )
}

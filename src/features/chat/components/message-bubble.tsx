import type { CSSProperties, Ref } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { formatDateTime } from '../../../core/format/index.ts'
import type { ReceiptState } from '../../../shared/live/receipts.ts'
import { ReceiptMark } from './receipt-mark.tsx'

export interface BubbleProps {
  text: string
  imageUrls: readonly string[]
  mine: boolean
  at: number
  /** A reply still in the outbox: 'pending' | 'sending' | 'failed'. */
  outboxState?: string
  /** What the network said of the page's own message (absent for the customer's). */
  receipt?: ReceiptState
  onDiscard?: () => void
  /** The page's opt-in request ("Ask to subscribe") with this title, shown as such. */
  optinTitle?: string
  /** Placement in the virtualised history: its measuring ref, index and position. */
  ref?: Ref<HTMLLIElement>
  index?: number
  style?: CSSProperties
}

export function MessageBubble(props: BubbleProps) {
  const { text, imageUrls, mine, at, outboxState, receipt, onDiscard, ref, index, style, optinTitle } = props
  const { i18n } = useLingui()
  const time = formatDateTime(at, i18n.locale, 'short')
  return (
    <li
      ref={ref}
      data-index={index}
      style={style}
      data-testid={
        outboxState ? 'pending-reply' : optinTitle !== undefined ? 'optin-request' : 'chat-message'
      }
      data-state={outboxState}
      className={`flex flex-col gap-1 ${mine ? 'items-end' : 'items-start'}`}
    >
      <div
        className={`max-w-[75%] rounded-2xl px-3 py-2 ${
          optinTitle !== undefined
            ? 'border border-dashed border-brand-600 bg-brand-50 text-brand-900'
            : mine
              ? 'bg-brand-600 text-white'
              : 'bg-gray-100 text-gray-900'
        } ${outboxState ? 'opacity-70' : ''}`}
      >
        {optinTitle !== undefined ? (
          <p className="text-sm">
            <span aria-hidden="true">🔔 </span>
            <Trans>
              Subscription request: <span dir="auto">{optinTitle}</span>
            </Trans>
          </p>
        ) : null}
        {imageUrls.map((url) => (
          <img
            key={url}
            src={url}
            alt=""
            data-testid="chat-image"
            className="mb-1 max-h-60 rounded-lg"
            loading="lazy"
          />
        ))}
        {text ? (
          <p dir="auto" className="whitespace-pre-wrap break-words">
            {text}
          </p>
        ) : null}
        {receipt ? (
          <span className="-mb-1 flex justify-end">
            <ReceiptMark state={receipt} />
          </span>
        ) : null}
      </div>
      <span className="text-xs text-gray-500">
        {outboxState === 'failed' ? (
          <>
            <Trans>Not sent</Trans>{' '}
            <button type="button" className="underline" onClick={onDiscard}>
              <Trans>Discard</Trans>
            </button>
          </>
        ) : outboxState ? (
          <Trans>Waiting to send…</Trans>
        ) : (
          <time dateTime={new Date(at).toISOString()}>{time}</time>
        )}
      </span>
    </li>
  )
}

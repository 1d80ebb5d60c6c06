/** Step 3: the text, an optional image, the allowance warnings and the send button. */
import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import type { SubscriptionState } from '../../../shared/contracts/api.ts'
import { MESSAGE_TEXT_MAX } from '../../../shared/constants/limits.ts'
import { buttonPrimary, buttonSecondary } from '../../../shared/ui'
import type { AudiencePlan } from '../../../shared/bulk/allowance.ts'
import { isImageFile } from '../model/wizard.ts'
import { formatNumber } from '../../../shared/format/numbers.ts'

export function ComposeStep(props: {
  text: string
  image?: File
  onText(text: string): void
  onImage(file?: File): void
  plan: AudiencePlan
  subscription: SubscriptionState | null
  busy: boolean
  onSend(): void
  /** "Keep sending when I close the app": the server goes on with the job while the app is away. */
  keepSending: boolean
  onKeepSending(on: boolean): void
  /** A `datetime-local` value in the owner's zone when the send is scheduled; undefined: send now. */
  later?: string | undefined
  onLater(value: string | undefined): void
  /** An opt-in request is sent instead of a message: no text or image to write. */
  optin?: boolean
  /** Reaches subscribers by marketing message: the job runs on the server and cannot be scheduled. */
  marketing?: boolean
  /** The budget and the summary, shown above the send button. */
  extra?: ReactNode
}) {
  const { t, i18n } = useLingui()
  const { plan, subscription } = props
  const n = formatNumber(plan.count, i18n.locale)
  const trial = subscription?.access_type === 'trial'
  return (
    <div className="flex flex-col gap-3 text-sm">
      {props.optin ? (
        <p className="text-slate-600" data-testid="bulk-optin-note">
          <Trans>Messenger shows the request with your title and a button to subscribe.</Trans>
        </p>
      ) : (
        <>
          <label className="flex flex-col gap-1">
            <span className="font-medium text-slate-700">
              <Trans>Message</Trans>
            </span>
            <textarea
              dir="auto"
              className="min-h-28 rounded-lg border border-slate-300 p-2"
              value={props.text}
              maxLength={MESSAGE_TEXT_MAX}
              onChange={(e) => props.onText(e.target.value)}
              placeholder={t`Write your message`}
              data-testid="bulk-text"
            />
          </label>
          {/* The app's own button in the user's language, not the browser's "Choose File / No file chosen". */}
          <label className="flex flex-col gap-1">
            <span className="font-medium text-slate-700">
              <Trans>Image (optional)</Trans>
            </span>
            <span className="flex flex-wrap items-center gap-2">
              <span
                className={`${buttonSecondary} cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600`}
              >
                {props.image ? <Trans>Choose another photo</Trans> : <Trans>Choose a photo</Trans>}
                <input
                  type="file"
                  accept="image/*"
                  data-testid="bulk-image"
                  className="sr-only"
                  onChange={(e) => {
                    const file = e.target.files?.[0]
                    props.onImage(file && isImageFile(file) ? file : undefined)
                    if (file && !isImageFile(file)) e.target.value = ''
                  }}
                />
              </span>
              <span dir="auto" className="min-w-0 break-all text-slate-600" data-testid="bulk-image-name">
                {props.image ? props.image.name : <Trans>No photo chosen</Trans>}
              </span>
            </span>
          </label>
        </>
      )}
      {props.image && trial ? (
        <p className="rounded bg-amber-50 p-2 text-amber-800">
          <Trans>On a trial, the image will be sent with a watermark.</Trans>
        </p>
      ) : null}
      {plan.truncated ? (
        <p className="rounded bg-amber-50 p-2 text-amber-800" data-testid="bulk-truncated">
          <Trans>This message will be sent only to {n} users</Trans>
        </p>
      ) : null}
      {plan.brandedFrom >= 0 ? (
        <p className="rounded bg-sky-50 p-2 text-sky-800" data-testid="bulk-branded">
          <Trans>Messages beyond your allowance will carry the Pagecast footer.</Trans>
        </p>
      ) : null}
      {props.extra}
      {props.marketing ? (
        <p className="text-slate-500" data-testid="bulk-on-server">
          <Trans>
            Sends that reach subscribers run on the server from the start, even when the app is closed.
          </Trans>
        </p>
      ) : (
        <>
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-0.5"
              checked={props.keepSending}
              onChange={(e) => props.onKeepSending(e.target.checked)}
              data-testid="bulk-keep-sending"
            />
            <span className="flex flex-col">
              <span className="font-medium text-slate-700">
                <Trans>Keep sending when I close the app</Trans>
              </span>
              <span className="text-slate-500">
                <Trans>
                  The server goes on sending while the app is closed, and gives the job back when you return.
                </Trans>
              </span>
            </span>
          </label>
          {props.optin ? null : (
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                className="mt-0.5"
                checked={props.later !== undefined}
                onChange={(e) => props.onLater(e.target.checked ? '' : undefined)}
                data-testid="bulk-later"
              />
              <span className="font-medium text-slate-700">
                <Trans>Send later</Trans>
              </span>
            </label>
          )}
          {props.later !== undefined ? (
            <div className="flex flex-col gap-1 ps-6">
              <label className="flex flex-col gap-1">
                <span className="text-slate-700">
                  <Trans>Date and time</Trans>
                </span>
                <input
                  type="datetime-local"
                  className="rounded-lg border border-slate-300 p-2"
                  value={props.later}
                  onChange={(e) => props.onLater(e.target.value)}
                  data-testid="bulk-later-at"
                />
              </label>
              <p className="text-slate-500">
                <Trans>
                  The audience is computed when the send starts: only customers who wrote to the page in the
                  23 hours before it receive it.
                </Trans>
              </p>
            </div>
          ) : null}
        </>
      )}
      <button
        type="button"
        className={buttonPrimary}
        // With nothing available Send stays enabled: pressing it gives the persistent warning
        // (docs/product-rules.md#when-the-allowance-is-short).
        disabled={props.busy}
        onClick={props.onSend}
        data-testid="bulk-send"
      >
        {props.busy ? (
          <Trans>Sending…</Trans>
        ) : props.later !== undefined ? (
          <Trans>Schedule</Trans>
        ) : (
          <Trans>Send to {n} recipients</Trans>
        )}
      </button>
    </div>
  )
}

/** Step 3: the text, an optional image, the allowance warnings and the send button. */
import { plural } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useMemo, useRef, type ReactNode } from 'react'
import type { SubscriptionState } from '../../../core/contracts/api.ts'
import { MESSAGE_TEXT_MAX } from '../../../core/constants/limits.ts'
import { buttonPrimary, buttonSecondary } from '../../../shared/ui'
import type { AudiencePlan } from '../../../core/bulk/allowance.ts'
import { isImageFile } from '../model/wizard.ts'
import { overADayText } from '../model/send-words.ts'
import { formatNumber } from '../../../core/format/numbers.ts'
import { FIRST_NAME_TOKEN, personalText } from '../../../core/graph/delivery.ts'
import { sendDurationMs } from '../../../core/bulk/pacer.ts'
import { MAX_SEND_RECIPIENTS } from '../../../core/bulk/reach.ts'
import { Avatar } from '../../../shared/ui/avatar.tsx'

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
  /** An update from a template (written in step 2) is sent instead of a message. */
  utility?: boolean
  /** Reaches subscribers by marketing message: the job runs on the server and cannot be scheduled. */
  marketing?: boolean
  /** The budget and the summary, shown above the send button. */
  extra?: ReactNode
  /** Written where the text takes a recipient's first name and the network has none. */
  nameFallback?: string
  onNameFallback?(word: string): void
  /** Of the recipients sent now, how many the mandated pace reaches before their 24-hour window closes. */
  reach?: { count: number; of: number } | undefined
  /** The first recipient: the preview shows the message as they will see it. */
  preview?: { name: string; pictureUrl?: string }
}) {
  const { t, i18n } = useLingui()
  const { plan, subscription } = props
  const { count } = plan
  const trial = subscription?.access_type === 'trial'
  const textRef = useRef<HTMLTextAreaElement>(null)
  const previewUrl = useMemo(
    () => (props.image ? URL.createObjectURL(props.image) : undefined),
    [props.image],
  )
  useEffect(() => () => (previewUrl ? URL.revokeObjectURL(previewUrl) : undefined), [previewUrl])
  const named = props.text.includes(FIRST_NAME_TOKEN)
  const previewName = props.preview?.name ?? ''
  const fallback = props.nameFallback?.trim() || t`friend`
  const minutes = Math.round(sendDurationMs(plan.count) / 60_000)
  const reachCount = formatNumber(props.reach?.count ?? 0, i18n.locale)
  const reachOf = props.reach?.of ?? 0
  // The placeholder goes where the cursor is, so the owner never types its syntax.
  const insertName = () => {
    const el = textRef.current
    const at = el ? el.selectionStart : props.text.length
    const end = el ? el.selectionEnd : at
    const next = props.text.slice(0, at) + FIRST_NAME_TOKEN + props.text.slice(end)
    props.onText(next.slice(0, MESSAGE_TEXT_MAX))
    requestAnimationFrame(() => {
      el?.focus()
      el?.setSelectionRange(at + FIRST_NAME_TOKEN.length, at + FIRST_NAME_TOKEN.length)
    })
  }
  return (
    <div className="flex flex-col gap-3 text-sm">
      {props.optin ? (
        <p className="text-slate-600" data-testid="bulk-optin-note">
          <Trans>Messenger shows the request with your title and a button to subscribe.</Trans>
        </p>
      ) : props.utility ? (
        <p className="text-slate-600" data-testid="bulk-utility-note">
          <Trans>Each chosen customer gets the update from step 2, as its preview shows.</Trans>
        </p>
      ) : (
        <>
          <label className="flex flex-col gap-1">
            <span className="font-medium text-slate-700">
              <Trans>Message</Trans>
            </span>
            <textarea
              ref={textRef}
              dir="auto"
              className="min-h-28 rounded-lg border border-slate-300 p-2"
              value={props.text}
              maxLength={MESSAGE_TEXT_MAX}
              onChange={(e) => props.onText(e.target.value)}
              placeholder={t`Write your message`}
              data-testid="bulk-text"
            />
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              className={buttonSecondary}
              data-testid="bulk-insert-name"
              onClick={insertName}
            >
              <Trans>Insert first name</Trans>
            </button>
            {named ? (
              // The words and the field share a line when they fit; otherwise the field takes a line of its own.
              <label className="flex min-w-0 flex-1 basis-64 flex-wrap items-center gap-x-2 gap-y-1">
                <span className="text-slate-700">
                  <Trans>When Facebook has no name, write:</Trans>
                </span>
                <input
                  type="text"
                  dir="auto"
                  data-testid="bulk-name-fallback"
                  maxLength={40}
                  value={props.nameFallback ?? ''}
                  placeholder={t`friend`}
                  onChange={(e) => props.onNameFallback?.(e.target.value)}
                  className="min-h-11 w-28 min-w-28 flex-1 rounded-md border border-slate-300 px-2"
                />
              </label>
            ) : null}
          </div>
          {props.preview && (props.text.trim() || props.image) ? (
            <figure className="flex flex-col gap-1" data-testid="bulk-preview">
              <figcaption className="font-medium text-slate-700">
                <Trans>
                  As <bdi>{previewName}</bdi> will see it
                </Trans>
              </figcaption>
              <div className="flex items-end gap-2 rounded-lg bg-white p-2">
                <Avatar src={props.preview.pictureUrl} />
                <div className="flex min-w-0 flex-col items-start gap-1">
                  {previewUrl ? (
                    <img
                      src={previewUrl}
                      alt=""
                      className="max-h-32 rounded-lg"
                      data-testid="bulk-preview-image"
                    />
                  ) : null}
                  {props.text.trim() ? (
                    <p
                      dir="auto"
                      data-testid="bulk-preview-text"
                      className="rounded-2xl bg-brand-600 px-3 py-2 break-words whitespace-pre-wrap text-white"
                    >
                      {personalText(props.text, props.preview.name, fallback)}
                    </p>
                  ) : null}
                </div>
              </div>
            </figure>
          ) : null}
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
          <Plural
            value={count}
            one="This message will be sent only to # user"
            other="This message will be sent only to # users"
          />
        </p>
      ) : null}
      {plan.brandedFrom >= 0 ? (
        <p className="rounded bg-sky-50 p-2 text-sky-800" data-testid="bulk-branded">
          <Trans>Messages beyond your allowance will carry the Pagecast footer.</Trans>
        </p>
      ) : null}
      {plan.count > 0 && !props.later ? (
        <p className="text-slate-600" data-testid="bulk-duration">
          {minutes < 1 ? (
            <Trans>About a minute at Messenger's pace.</Trans>
          ) : (
            t`${plural(minutes, { one: 'About # minute', other: 'About # minutes' })} for ${plural(count, { one: '# message', other: '# messages' })} at Messenger's pace.`
          )}
        </p>
      ) : null}
      {props.reach && props.reach.count < props.reach.of ? (
        <p className="rounded bg-amber-50 p-2 text-amber-800" data-testid="bulk-reach-in-time">
          {plural(reachOf, {
            one: `At Messenger's pace ${reachCount} of this # customer can be reached before their 24-hour window closes. Messenger refuses the others.`,
            other: `At Messenger's pace ${reachCount} of these # customers can be reached before their 24-hour window closes, those whose window closes soonest first. Messenger refuses the others.`,
          })}
        </p>
      ) : null}
      {plan.count > MAX_SEND_RECIPIENTS ? (
        <p className="rounded bg-amber-50 p-2 text-amber-800" data-testid="bulk-over-a-day">
          {overADayText(MAX_SEND_RECIPIENTS)}
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
          {props.optin || props.utility ? null : (
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
        // With nobody to send to and messages left there is nothing to do.
        disabled={props.busy || (count === 0 && !plan.refused)}
        onClick={props.onSend}
        data-testid="bulk-send"
      >
        {props.busy ? (
          <Trans>Sending…</Trans>
        ) : plan.refused ? (
          <Trans>No messages left: buy more</Trans>
        ) : count === 0 ? (
          <Trans>Nothing to send</Trans>
        ) : props.later !== undefined ? (
          <Trans>Schedule</Trans>
        ) : (
          <Plural value={count} one="Send to # recipient" other="Send to # recipients" />
        )}
      </button>
    </div>
  )
}

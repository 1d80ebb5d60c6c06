/** The "Ask to subscribe" sheet of one chat (see ask-to-subscribe.tsx), loaded when first opened. */
import { SheetFrame } from '../../../shared/ui/sheet-frame.tsx'
import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { checkOptinRequests, marketingQueryKey, recordOptinRequests } from '../../../shared/api/marketing.ts'
import { OPTIN_TITLE_MAX, type OptinRefusal } from '../../../core/contracts/marketing.ts'
import { formatLongDate, isolate } from '../../../core/format/index.ts'
import { buttonPrimary, buttonSecondary } from '../../../shared/ui/button-styles.ts'
import { closeModal } from '../../../shared/ui/modal-stack.ts'
import { marketingRefusalText } from '../model/marketing-error.ts'
import { rememberOptInRequest } from '../model/optin-sent.ts'
import type { AskToSubscribeProps } from './ask-to-subscribe-props.ts'

type Phase = 'checking' | 'ready' | 'sending' | 'sent'

export function AskSheet({
  pageId,
  customerId,
  customerName: name,
  inWindow,
  send,
  onSent,
  defaultTitle,
}: AskToSubscribeProps & { defaultTitle: string }) {
  const { i18n, t } = useLingui()
  const customerName = isolate(name)
  const queryClient = useQueryClient()
  const [title, setTitle] = useState(defaultTitle)
  const [checked, setChecked] = useState<{ title: string; refusal?: OptinRefusal }>()
  const [phase, setPhase] = useState<Phase>('checking')
  const [error, setError] = useState<string>()
  const close = () => closeModal('ask-to-subscribe')
  const trimmed = title.trim()

  // Who may be asked with this title: checked on opening and again for an edited title before sending.
  const check = async (forTitle: string) => {
    const answer = await checkOptinRequests(pageId, [customerId], forTitle)
    const result = { title: forTitle, refusal: answer.refused.find((r) => r.psid === customerId) }
    setChecked(result)
    return result
  }
  useEffect(() => {
    if (!inWindow) return
    let live = true
    void checkOptinRequests(pageId, [customerId], defaultTitle)
      .then((answer) => {
        if (!live) return
        setChecked({ title: defaultTitle, refusal: answer.refused.find((r) => r.psid === customerId) })
        setPhase('ready')
      })
      .catch(() => live && setPhase('ready'))
    return () => {
      live = false
    }
  }, [pageId, customerId, defaultTitle, inWindow])

  const refusal = checked?.title === trimmed ? checked.refusal : undefined
  const subscribed = checked?.refusal?.reason === 'subscribed'
  const submit = async () => {
    setError(undefined)
    setPhase('sending')
    try {
      const result = checked?.title === trimmed ? checked : await check(trimmed)
      if (result.refusal) return setPhase('ready')
      const sent = await send(customerId, trimmed)
      rememberOptInRequest(sent.message_id, trimmed)
      await recordOptinRequests(pageId, [{ psid: customerId, message_id: sent.message_id }], trimmed).catch(
        () => undefined,
      )
      setPhase('sent')
      onSent?.()
      void queryClient.invalidateQueries({ queryKey: marketingQueryKey(pageId) })
    } catch (err) {
      // The network's documented refusals (weekly limit, outside the window…) have texts of their own.
      const documented = marketingRefusalText(err)
      if (documented) {
        setError(i18n._(documented))
        return setPhase('ready')
      }
      // The network's own words, set apart from the sentence in the user's language.
      const detail = err instanceof Error && err.message ? isolate(err.message) : ''
      setError(t`Facebook did not take the request. ${detail}`.trim())
      setPhase('ready')
    }
  }

  const nextAt = refusal?.next_at ? formatLongDate(refusal.next_at, i18n.locale) : undefined
  return (
    <SheetFrame
      testId="ask-to-subscribe-sheet"
      title={<Trans>Ask {customerName} to subscribe</Trans>}
      onClose={close}
    >
      {!inWindow ? (
        <p role="alert" data-testid="ask-reason">
          <Trans>
            You can ask a customer only within 24 hours of their last message. When they write again, you can
            ask.
          </Trans>
        </p>
      ) : phase === 'sent' ? (
        <p role="status" data-testid="ask-sent" className="text-emerald-900">
          <Trans>Request sent. When the customer taps "Subscribe", they count as a subscriber.</Trans>
        </p>
      ) : subscribed ? (
        <p role="alert" data-testid="ask-reason">
          <Trans>This customer is already subscribed to your marketing messages.</Trans>
        </p>
      ) : (
        <>
          <p>
            <Trans>
              The customer gets a request with a "Subscribe" button. You may send one request with the same
              title to a person once a week.
            </Trans>
          </p>
          <label className="block">
            <span className="mb-1 block font-medium text-slate-900">
              <Trans>Title of the request</Trans>
            </span>
            <input
              data-testid="ask-title"
              dir="auto"
              value={title}
              maxLength={OPTIN_TITLE_MAX}
              onChange={(e) => setTitle(e.target.value)}
              className="w-full rounded-md border border-slate-300 px-3 py-2"
            />
          </label>
          {refusal?.reason === 'asked_this_week' ? (
            <p role="alert" data-testid="ask-reason" className="text-amber-900">
              {nextAt ? (
                <Trans>
                  You already asked this customer with this title this week. You can ask again on {nextAt}, or
                  change the title.
                </Trans>
              ) : (
                <Trans>You already asked this customer with this title this week. Change the title.</Trans>
              )}
            </p>
          ) : null}
          {error ? (
            <p role="alert" data-testid="ask-error" className="text-red-700">
              {error}
            </p>
          ) : null}
        </>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonSecondary} onClick={close}>
          {phase === 'sent' || !inWindow || subscribed ? <Trans>Close</Trans> : <Trans>Cancel</Trans>}
        </button>
        {inWindow && phase !== 'sent' && !subscribed ? (
          <button
            type="button"
            data-testid="ask-send"
            className={buttonPrimary}
            disabled={phase !== 'ready' || !trimmed || !!refusal}
            onClick={() => void submit()}
          >
            {phase === 'sending' ? <Trans>Sending…</Trans> : <Trans>Send request</Trans>}
          </button>
        ) : null}
      </div>
    </SheetFrame>
  )
}

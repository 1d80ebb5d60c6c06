/** The three-step bulk-message wizard (audience, content type, writing and sending). */
import { Trans, useLingui } from '@lingui/react/macro'
import { useMemo, useReducer, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { scheduleBulkMessage, uploadImage } from '../../../shared/api'
import { useClientConfig } from '../../../shared/config'
import { notify } from '../../../shared/notifications'
import { defaultContent, splitByWindow, tagForSend } from '../../../shared/policy/messaging.ts'
import { useSession } from '../../../shared/session'
import { openModal } from '../../../shared/ui'
import { planAudience } from '../../../shared/bulk/allowance.ts'
import { NothingAvailable, startBulkJob } from '../api/start-job.ts'
import { useAudience } from '../api/use-audience.ts'
import { useAvailablePoll } from '../api/use-available.ts'
import {
  initialWizard,
  keepSendingByDefault,
  selectedRecipients,
  wizardReducer,
  type StepNo,
} from '../model/wizard.ts'
import { AudienceStep } from './audience-step.tsx'
import { ComposeStep } from './compose-step.tsx'
import { ContentStep } from './content-step.tsx'
import { StepFrame } from './step-frame.tsx'
import { SCHEDULED_KEY } from './scheduled-list.tsx'

export interface BulkWizardProps {
  pageId: string
  pageName: string
  pageToken: string
  onClose(): void
}

export function BulkWizard({ pageId, pageName, pageToken, onClose }: BulkWizardProps) {
  const { t } = useLingui()
  const config = useClientConfig()
  const { subscription } = useSession()
  const policy = config.messagingPolicy
  const audience = useAudience(pageId, pageToken, config.graphUrl, config.graphVersion)
  const [state, dispatch] = useReducer(wizardReducer, undefined, () => ({
    ...initialWizard(),
    content: defaultContent(policy),
  }))
  const [busy, setBusy] = useState(false)
  /** The owner's choice; until they choose, on when the send would take more than a few minutes. */
  const [keepChoice, setKeepChoice] = useState<boolean | undefined>(undefined)
  const [later, setLater] = useState<string | undefined>(undefined)
  const queries = useQueryClient()
  const guard = useRef(false)
  useAvailablePoll()

  const selected = selectedRecipients(state, audience.customers)
  const split = useMemo(
    () => splitByWindow(policy, selected, (c) => c.lastCustomerMessageAt, audience.at),
    [policy, selected, audience.at],
  )
  const sub = subscription ?? null
  const plan = planAudience(split.inside.length, sub)
  const recipients = split.inside.length
  const keepSending = keepChoice ?? keepSendingByDefault(plan.count)
  const toggle = (step: StepNo) => dispatch({ type: 'toggle-step', step, recipients })

  async function send() {
    if (guard.current) return
    if (!state.text.trim()) {
      notify({ kind: 'warning', title: t`Incomplete form`, message: t`Please enter a message` })
      return
    }
    if (plan.refused) {
      notify({
        kind: 'warning',
        title: t`You don't have any messages available`,
        message: t`Please purchase a subscription to send messages`,
        persistent: true,
        action: {
          label: t`Buy`,
          onClick: () => openModal(sub?.access_type === 'trial' ? 'plans' : 'addons'),
        },
      })
      return
    }
    if (later !== undefined) {
      const at = later ? new Date(later).getTime() : NaN
      if (!Number.isFinite(at) || at <= Date.now()) {
        notify({
          kind: 'warning',
          title: t`Incomplete form`,
          message: t`Choose a date and time in the future`,
        })
        return
      }
      guard.current = true
      setBusy(true)
      try {
        const imageUrl = state.image
          ? (await uploadImage(state.image, sub?.access_type ?? null)).url
          : undefined
        const tagging = tagForSend(policy, state.content ?? defaultContent(policy))
        await scheduleBulkMessage({
          page_id: pageId,
          message: state.text,
          image_url: imageUrl ?? null,
          label: JSON.stringify(state.labels),
          tag: tagging.tag ?? null,
          messaging_type: tagging.messagingType,
          scheduled_at: at,
          time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          page_token: pageToken,
        })
        dispatch({ type: 'reset' })
        setLater(undefined)
        void queries.invalidateQueries({ queryKey: SCHEDULED_KEY })
        notify({ kind: 'success', title: t`Send scheduled`, message: state.text.slice(0, 80) })
      } catch {
        // Reported by the API client.
      } finally {
        guard.current = false
        setBusy(false)
      }
      return
    }
    guard.current = true
    setBusy(true)
    try {
      const imageUrl = state.image
        ? (await uploadImage(state.image, sub?.access_type ?? null)).url
        : undefined
      const { count } = await startBulkJob({
        pageId,
        pageName,
        text: state.text,
        ...(imageUrl ? { imageUrl } : {}),
        content: state.content ?? defaultContent(policy),
        policy,
        labels: state.labels,
        recipients: split.inside,
        subscription: sub,
        keepSending,
      })
      dispatch({ type: 'reset' })
      notify({
        kind: 'success',
        title: t`Sending message`,
        message: t`Sending message to ${count} recipients, well done!`,
      })
    } catch (err) {
      if (err instanceof NothingAvailable) openModal(sub?.access_type === 'trial' ? 'plans' : 'addons')
      // Other failures were reported by the API client.
    } finally {
      guard.current = false
      setBusy(false)
    }
  }

  return (
    <div className="flex h-full flex-col gap-3 overflow-y-auto bg-slate-50 p-4" data-testid="bulk-wizard">
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold text-slate-800">
          <Trans>Send a new bulk message</Trans>
        </h2>
        <button
          type="button"
          className="rounded p-1 text-slate-500 hover:bg-slate-100"
          aria-label={t`Close`}
          onClick={onClose}
        >
          ×
        </button>
      </div>
      <StepFrame
        no={1}
        title={<Trans>Audience</Trans>}
        open={state.open[1]}
        enabled
        onToggle={() => toggle(1)}
      >
        <AudienceStep
          labels={state.labels}
          onToggle={(label) => dispatch({ type: 'toggle-label', label })}
          loaded={audience.customers.length}
          loading={audience.loading}
          onCancel={audience.cancel}
          inside={split.inside.length}
          outside={split.outside.length}
          windowed={policy === 'current'}
        />
      </StepFrame>
      <StepFrame
        no={2}
        title={<Trans>Content type</Trans>}
        open={state.open[2]}
        enabled={recipients > 0 && state.labels.length > 0}
        onToggle={() => toggle(2)}
      >
        <ContentStep
          policy={policy}
          value={state.content}
          onChange={(content) => dispatch({ type: 'content', content })}
        />
      </StepFrame>
      <StepFrame
        no={3}
        title={<Trans>Write and send</Trans>}
        open={state.open[3]}
        enabled={recipients > 0 && state.labels.length > 0 && state.content !== undefined}
        onToggle={() => toggle(3)}
      >
        <ComposeStep
          text={state.text}
          image={state.image}
          onText={(text) => dispatch({ type: 'text', text })}
          onImage={(image) => dispatch(image ? { type: 'image', image } : { type: 'image' })}
          plan={plan}
          subscription={sub}
          busy={busy}
          onSend={() => void send()}
          keepSending={keepSending}
          onKeepSending={setKeepChoice}
          later={later}
          onLater={setLater}
        />
      </StepFrame>
    </div>
  )
}

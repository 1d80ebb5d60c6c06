/**
 * The three-step bulk-message wizard (audience, content type, writing and sending). Under the current policy
 * the audience comes in three groups (inside the window, subscribers outside it, the rest); a send to
 * subscribers takes a campaign budget and runs on the server; "Ask to subscribe" sends opt-in requests; an
 * update from a template (a utility message) goes to everyone chosen, inside the window or not.
 */
import { plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useMemo, useReducer, useRef, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { checkOptinRequests, scheduleBulkMessage, uploadImage } from '../../../shared/api'
import { marketingKeys } from '../../../shared/api/marketing.ts'
import type { AudienceMember } from '../../../device/bulk/records.ts'
import { useClientConfig } from '../../../shared/config'
import { createGraphClient } from '../../../core/graph/client.ts'
import { OPTIN_PSIDS_PER_CALL_MAX, type OptinCheckResponse } from '../../../core/contracts/marketing.ts'
import { notify } from '../../../shared/notifications'
import { defaultContent, tagForSend } from '../../../core/policy/messaging.ts'
import { countWhy, splitAudience } from '../../../core/policy/reach.ts'
import { needsReply } from '../../../core/policy/needs-reply.ts'
import { usePageStates } from '../../../shared/live/conversation-states.ts'
import { hasPermissions, requestExtraPermissions, sessionStore, useSession } from '../../../shared/session'
import { MARKETING_PERMISSIONS } from '../../../shared/marketing/permissions.ts'
import { LoadingDots, openModal } from '../../../shared/ui'
import { planAudience } from '../../../core/bulk/allowance.ts'
import { MAX_SEND_RECIPIENTS, reachableInWindow, soonestClosingFirst } from '../../../core/bulk/reach.ts'
import { paramsComplete } from '../../../core/graph/template.ts'
import type { WithToken } from '../../../shared/utility/api.ts'
import { MarketingStartFailed, NothingAvailable, startBulkJob } from '../api/start-job.ts'
import { useAudience } from '../api/use-audience.ts'
import { useLabelAudience } from '../api/use-label-audience.ts'
import { labelCounts } from '../../../shared/labels/audience.ts'
import { useAvailablePoll } from '../api/use-available.ts'
import { marketingEstimateQueryOptions, usePageMarketing } from '../api/use-marketing.ts'
import { budgetVerdict, sendSummary } from '../model/marketing.ts'
import { marketingReasonText } from '../model/marketing-error.ts'
import { networkClassText, networkRefusalOf } from '../model/network-error.ts'
import {
  chosenGroups,
  hasAudience,
  initialWizard,
  keepSendingByDefault,
  selectedRecipients,
  wizardReducer,
  type StepNo,
} from '../model/wizard.ts'
import { overADayText } from '../model/send-words.ts'
import { AudienceStep } from './audience-step.tsx'
import { BudgetSection, SendSummaryList } from './budget-section.tsx'
import { ComposeStep } from './compose-step.tsx'
import { ContentStep } from './content-step.tsx'
import { SendHistoryLink } from './send-history-link.tsx'
import { StepFrame } from './step-frame.tsx'
import { SCHEDULED_KEY } from '../api/queries.ts'

/** The update from a template loads when the owner first chooses it. */
const WizardUpdate = lazy(() =>
  import('../../../shared/utility/wizard-update.tsx').then((m) => ({ default: m.WizardUpdate })),
)

export interface BulkWizardProps {
  pageId: string
  pageName: string
  pageToken: string
  /** Runs a Graph call with the page's token, read again when it has expired (the templates' calls). */
  withToken?: WithToken
  onClose(): void
}

export function BulkWizard({ pageId, pageName, pageToken, withToken, onClose }: BulkWizardProps) {
  const { t, i18n } = useLingui()
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

  const pictures = useMemo(
    () => createGraphClient({ baseUrl: config.graphUrl, version: config.graphVersion }),
    [config.graphUrl, config.graphVersion],
  )
  const pictureOf = (id: string) => pictures.pictureUrl(id, pageToken, 'normal')
  const windowed = policy === 'current'
  const marketing = usePageMarketing(pageId, windowed)
  // The customers' labels are read once the audience has loaded (those the device has not read lately).
  const loadedIds = useMemo(
    () => (audience.loading ? undefined : audience.customers.map((c) => c.recipientId)),
    [audience.loading, audience.customers],
  )
  const labelled = useLabelAudience(pageId, pageToken, config.graphUrl, config.graphVersion, loadedIds)
  const counts = useMemo(
    () => labelCounts(loadedIds ?? [], labelled.labelsOf ?? new Map()),
    [loadedIds, labelled.labelsOf],
  )
  const byLabel = state.pageLabels.length > 0
  const byAudience = useMemo(
    () => selectedRecipients(state, audience.customers, labelled.labelsOf),
    [state, audience.customers, labelled.labelsOf],
  )
  // Customers waiting for an answer are left out unless the owner includes them: a broadcast is no answer.
  const states = usePageStates(pageId)
  const [includeWaiting, setIncludeWaiting] = useState(false)
  const waiting = useMemo(() => {
    const ids = new Set<string>()
    for (const c of byAudience) {
      const network = { updatedAt: c.updatedAt ?? Infinity, lastCustomerMessageAt: c.lastCustomerMessageAt }
      if (needsReply(states?.get(c.recipientId), network)) ids.add(c.recipientId)
    }
    return ids
  }, [byAudience, states])
  const waitingCount = waiting.size
  const selected = useMemo(
    () => (includeWaiting ? byAudience : byAudience.filter((c) => !waiting.has(c.recipientId))),
    [includeWaiting, byAudience, waiting],
  )
  const split = useMemo(
    () =>
      splitAudience(
        policy,
        selected,
        (c) => c.lastCustomerMessageAt,
        (c) => marketing.subscribers.has(c.recipientId),
        marketing.on,
        audience.at,
      ),
    [policy, selected, marketing.subscribers, marketing.on, audience.at],
  )
  const optin = state.kind === 'optin_request'
  const utility = windowed && state.kind === 'utility'
  const chosen = chosenGroups(state, split)
  const optinTitle = state.optinTitle.trim()
  const optinCheck = useOptinCheck(pageId, optin ? chosen.standard.map((c) => c.recipientId) : [], optinTitle)
  // An opt-in request goes to those the check allows (all of them while the check failed: the network refuses
  // the repeated ones itself).
  // Under today's rules a long send reaches in time those whose window closes soonest: they go first.
  const standard = useMemo(() => {
    const allowed = optin && optinCheck.data ? new Set(optinCheck.data.allowed) : undefined
    const list = allowed ? chosen.standard.filter((c) => allowed.has(c.recipientId)) : chosen.standard
    return windowed && !utility ? soonestClosingFirst(list, (c) => c.lastCustomerMessageAt) : list
  }, [optin, optinCheck.data, chosen.standard, windowed, utility])
  const sub = subscription ?? null
  const plan = planAudience(standard.length + chosen.marketing.length, sub)
  // How many the mandated pace reaches before their window closes (those in a send now, in its order).
  const reach = useMemo(() => {
    if (!windowed || utility || later !== undefined) return undefined
    const sent = standard.slice(0, Math.min(standard.length, plan.count))
    return { count: reachableInWindow(sent, (c) => c.lastCustomerMessageAt, audience.at), of: sent.length }
  }, [windowed, utility, later, standard, plan.count, audience.at])
  const summary = sendSummary(standard.length, chosen.marketing.length, plan.count)
  const marketingCount = summary.marketing
  const estimate = useQuery({
    ...marketingEstimateQueryOptions(pageId, marketingCount),
    enabled: marketingCount > 0,
    retry: false,
    staleTime: 60_000,
  })
  const currency = marketing.currency ?? estimate.data?.currency ?? ''
  const verdict = budgetVerdict(
    { kind: state.budgetKind, amount: state.budgetAmount },
    currency,
    estimate.data?.estimate_minor,
  )
  const [tried, setTried] = useState(false)
  const recipients = standard.length + chosen.marketing.length
  const keepSending = keepChoice ?? keepSendingByDefault(plan.count)
  // Step 2 opens with anyone chosen: an update from a template reaches those outside the window too.
  const reachable = windowed ? selected.length : recipients
  const toggle = (step: StepNo) =>
    dispatch({ type: 'toggle-step', step, recipients: step === 2 ? reachable : recipients })
  const utilityReady = !!state.utility && paramsComplete(state.utility.body, state.utility.params)

  async function send() {
    if (guard.current) return
    if (utility ? !utilityReady : optin ? !optinTitle : !state.text.trim()) {
      notify({
        kind: 'warning',
        title: t`Incomplete form`,
        message: utility
          ? t`Choose a template and fill in its placeholders.`
          : optin
            ? t`Enter a title for the request.`
            : t`Please enter a message`,
      })
      return
    }
    if (marketingCount > 0 && !verdict.ok) {
      setTried(true)
      notify({
        kind: 'warning',
        title: t`Incomplete form`,
        message: t`Enter a valid budget for the marketing messages.`,
      })
      return
    }
    if (plan.count > MAX_SEND_RECIPIENTS) {
      notify({
        kind: 'warning',
        title: t`This send would take more than a day`,
        message: overADayText(MAX_SEND_RECIPIENTS),
      })
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
    if (later !== undefined && !optin && !utility && marketingCount === 0 && !byLabel) {
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
          include_waiting: includeWaiting,
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
    // Marketing messages need the permission to manage ads (the campaign) on the current login: asked here,
    // straight from the click, when it is missing. A granted permission comes with the page's token read
    // again, since a token read before the grant would have the campaign refused.
    let startToken = pageToken
    if (marketingCount > 0 && !hasPermissions(MARKETING_PERMISSIONS)) {
      const asked = await requestExtraPermissions(MARKETING_PERMISSIONS)
      if (!asked.granted) {
        guard.current = false
        setBusy(false)
        notify({
          kind: 'error',
          title: t`The marketing send did not start`,
          message: t`Marketing messages need the permission to manage your ads. Nothing was sent: send again and allow it.`,
          persistent: true,
        })
        return
      }
      startToken = sessionStore.getState().accounts.find((a) => a.id === pageId)?.access_token ?? pageToken
    }
    try {
      // An opt-in request or an update carries no image of the owner's.
      const imageUrl =
        state.image && !optin && !utility
          ? (await uploadImage(state.image, sub?.access_type ?? null)).url
          : undefined
      const { count } = await startBulkJob({
        pageId,
        pageName,
        text: state.text,
        ...(imageUrl ? { imageUrl } : {}),
        content: state.content ?? defaultContent(policy),
        policy,
        labels: byLabel ? state.pageLabels : state.labels,
        ...(byLabel
          ? {
              audienceLabels: {
                match: state.labelMatch,
                labels: labelled.labels
                  .filter((l) => state.pageLabels.includes(l.id))
                  .map(({ id, name }) => ({ id, name })),
              },
            }
          : {}),
        nameFallback: state.nameFallback.trim() || t`friend`,
        recipients: [
          ...standard.map((c): AudienceMember => ({ ...member(c), way: 'standard' })),
          ...chosen.marketing.map((c): AudienceMember => ({ ...member(c), way: 'marketing' })),
        ],
        subscription: sub,
        keepSending,
        ...(optin ? { contentKind: 'optin_request' as const, optinTitle } : {}),
        ...(utility && state.utility ? { contentKind: 'utility' as const, utility: state.utility } : {}),
        ...(marketingCount > 0 && verdict.ok
          ? {
              marketing: {
                budget: { kind: state.budgetKind, minor: verdict.minor },
                currency,
                estimateMinor: estimate.data?.estimate_minor ?? 0,
                pageToken: startToken,
              },
            }
          : {}),
      })
      setTried(false)
      dispatch({ type: 'reset' })
      notify({
        kind: 'success',
        title: t`Sending message`,
        message: plural(count, {
          one: 'Sending message to # recipient, well done!',
          other: 'Sending message to # recipients, well done!',
        }),
      })
    } catch (err) {
      if (err instanceof NothingAvailable) openModal(sub?.access_type === 'trial' ? 'plans' : 'addons')
      else if (err instanceof MarketingStartFailed) {
        const network = networkRefusalOf(err.code)
        notify({
          kind: 'error',
          title: t`The marketing send did not start`,
          message: i18n._(network ? networkClassText(network.kind) : marketingReasonText(err.code)),
          ...(network && err.serverMessage ? { detail: err.serverMessage } : {}),
          persistent: true,
        })
      }
      // Other failures were reported by the API client.
    } finally {
      guard.current = false
      setBusy(false)
    }
  }

  return (
    <div
      className="flex h-full min-w-0 flex-col gap-3 overflow-y-auto bg-slate-50 p-4"
      data-testid="bulk-wizard"
    >
      <div className="flex flex-wrap items-center gap-x-2">
        <h2 className="min-w-0 flex-1 text-lg font-semibold text-slate-800">
          <Trans>Send a new bulk message</Trans>
        </h2>
        <SendHistoryLink pageId={pageId} className="shrink-0" />
        <button
          type="button"
          className="-me-2 grid size-11 place-items-center rounded text-lg text-slate-500 hover:bg-slate-100"
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
          pageLabels={{
            labels: labelled.labels.map((l) => ({ ...l, count: counts.get(l.id) ?? 0 })),
            chosen: state.pageLabels,
            onToggle: (id) => dispatch({ type: 'toggle-page-label', id }),
            match: state.labelMatch,
            onMatch: (match) => dispatch({ type: 'label-match', match }),
            reading: labelled.reading,
          }}
          loaded={audience.customers.length}
          loading={audience.loading}
          onCancel={audience.cancel}
          failed={audience.failed}
          onResume={audience.resume}
          windowed={windowed}
          waiting={{ count: waitingCount, included: includeWaiting, onInclude: setIncludeWaiting }}
          groups={{
            standard: split.standard.length,
            marketing: split.marketing.length,
            none: countWhy(split.none),
            marketingOn: marketing.loading ? undefined : marketing.on,
            optin,
            utility,
            chosen: state.groups,
            onChoose: (group, on) => dispatch({ type: 'group', group, on }),
          }}
        />
      </StepFrame>
      <StepFrame
        no={2}
        title={<Trans>Content type</Trans>}
        open={state.open[2]}
        enabled={reachable > 0 && hasAudience(state)}
        onToggle={() => toggle(2)}
      >
        <ContentStep
          policy={policy}
          value={state.content}
          onChange={(content) => dispatch({ type: 'content', content })}
          update={
            windowed
              ? {
                  selected: utility,
                  onSelect: () => dispatch({ type: 'kind', kind: 'utility' }),
                  panel: (
                    <Suspense fallback={<LoadingDots />}>
                      <WizardUpdate
                        pageId={pageId}
                        withToken={withToken ?? ((call) => call(pageToken))}
                        value={state.utility}
                        onChange={(u) => dispatch({ type: 'utility', utility: u })}
                        first={standard[0]?.name}
                        fallback={state.nameFallback.trim() || t`friend`}
                        reach={{
                          inside: split.standard.length,
                          outside: selected.length - split.standard.length,
                        }}
                      />
                    </Suspense>
                  ),
                }
              : undefined
          }
          optin={
            windowed && marketing.on
              ? {
                  selected: optin,
                  onSelect: () => dispatch({ type: 'kind', kind: 'optin_request' }),
                  title: state.optinTitle,
                  onTitle: (title) => dispatch({ type: 'optin-title', title }),
                  // Nobody inside the window to check: nobody to ask.
                  check: optinCheck.data ?? (chosen.standard.length === 0 ? NOBODY : undefined),
                  checkFailed: optinCheck.isError,
                }
              : undefined
          }
        />
      </StepFrame>
      <StepFrame
        no={3}
        title={<Trans>Write and send</Trans>}
        open={state.open[3]}
        enabled={recipients > 0 && hasAudience(state) && state.content !== undefined}
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
          // A send by label is chosen now: a scheduled send computes its audience when it starts.
          later={optin || utility || marketingCount > 0 || byLabel ? undefined : later}
          nameFallback={state.nameFallback}
          onNameFallback={(word) => dispatch({ type: 'name-fallback', word })}
          preview={
            (standard[0] ?? chosen.marketing[0])
              ? {
                  name: (standard[0] ?? chosen.marketing[0])!.name,
                  pictureUrl: pictureOf((standard[0] ?? chosen.marketing[0])!.recipientId),
                }
              : undefined
          }
          onLater={setLater}
          reach={reach}
          optin={optin}
          utility={utility}
          marketing={marketingCount > 0}
          extra={
            windowed && (marketingCount > 0 || optin) ? (
              <>
                {marketingCount > 0 ? (
                  <BudgetSection
                    currency={currency}
                    kind={state.budgetKind}
                    amount={state.budgetAmount}
                    onKind={(kind) => dispatch({ type: 'budget-kind', kind })}
                    onAmount={(amount) => dispatch({ type: 'budget-amount', amount })}
                    count={marketingCount}
                    estimate={estimate.data}
                    estimateFailed={estimate.isError}
                    verdict={verdict}
                    tried={tried}
                  />
                ) : null}
                <SendSummaryList
                  summary={summary}
                  currency={currency || undefined}
                  estimateMinor={marketingCount > 0 ? estimate.data?.estimate_minor : undefined}
                />
              </>
            ) : null
          }
        />
      </StepFrame>
    </div>
  )
}

const NOBODY: OptinCheckResponse = { allowed: [], refused: [] }

const member = (c: { recipientId: string; name: string; conversationId: string }) => ({
  recipientId: c.recipientId,
  name: c.name,
  conversationId: c.conversationId,
})

/** Who may be asked to subscribe with this title (in calls of at most 5,000 ids), while "Ask to subscribe" is on. */
function useOptinCheck(pageId: string, psids: readonly string[], title: string) {
  return useQuery({
    queryKey: marketingKeys.optinCheck(pageId, title, psids),
    queryFn: async (): Promise<OptinCheckResponse> => {
      const all: OptinCheckResponse = { allowed: [], refused: [] }
      for (let i = 0; i < psids.length; i += OPTIN_PSIDS_PER_CALL_MAX) {
        const part = await checkOptinRequests(pageId, psids.slice(i, i + OPTIN_PSIDS_PER_CALL_MAX), title)
        all.allowed.push(...part.allowed)
        all.refused.push(...part.refused)
      }
      return all
    },
    enabled: psids.length > 0 && title.length > 0,
    retry: false,
    staleTime: 30_000,
  })
}

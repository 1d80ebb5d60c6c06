/**
 * The wizard's state and its rules (docs/product-rules.md#bulk-wizard). Pure: the components only dispatch.
 */
import { SEND_DELAY_MAX_MS, SEND_DELAY_MIN_MS } from '../../../core/constants/limits.ts'
import type { AudienceLabel } from '../../../core/constants/limits.ts'
import { inLabelAudience, type LabelMatch } from '../../../shared/labels/audience.ts'
import type { ContentType } from '../../../core/policy/messaging.ts'
import type { UtilityContent } from '../../../core/graph/template.ts'
import { DEFAULT_OPTIN_TITLE, type BudgetKind, type ContentKind } from '../../../core/contracts/marketing.ts'

export type StepNo = 1 | 2 | 3

export interface WizardState {
  open: Record<StepNo, boolean>
  labels: AudienceLabel[]
  /** The page's custom labels chosen (ids): the audience is their customers instead of everyone. */
  pageLabels: string[]
  /** With several page labels: customers with any of them, or with all. */
  labelMatch: LabelMatch
  /** Written where the text takes a recipient's first name and the network has none. */
  nameFallback: string
  content?: ContentType
  text: string
  image?: File
  /** Which reachable groups the send goes to: inside the window (free) and subscribers outside it (paid). */
  groups: { standard: boolean; marketing: boolean }
  /**
   * The owner's message, an opt-in request ("Ask to subscribe", inside the window only), or an update from
   * one of the page's approved templates (a utility message, inside the window or not).
   */
  kind: ContentKind
  optinTitle: string
  /** The update's template and its placeholders' values (one may hold `{first name}`). */
  utility?: UtilityContent
  budgetKind: BudgetKind
  /** The budget as typed, in major units of the ad account's currency. */
  budgetAmount: string
}

export const initialWizard = (labels: AudienceLabel[] = ['all_labels']): WizardState => ({
  open: { 1: true, 2: false, 3: false },
  labels,
  pageLabels: [],
  labelMatch: 'any',
  nameFallback: '',
  text: '',
  groups: { standard: true, marketing: true },
  kind: 'text',
  optinTitle: DEFAULT_OPTIN_TITLE,
  budgetKind: 'total',
  budgetAmount: '',
})

export type WizardAction =
  | { type: 'toggle-step'; step: StepNo; recipients: number }
  | { type: 'toggle-label'; label: AudienceLabel }
  | { type: 'toggle-page-label'; id: string }
  | { type: 'label-match'; match: LabelMatch }
  | { type: 'name-fallback'; word: string }
  | { type: 'content'; content: ContentType }
  | { type: 'text'; text: string }
  | { type: 'image'; image?: File }
  | { type: 'group'; group: 'standard' | 'marketing'; on: boolean }
  | { type: 'kind'; kind: ContentKind }
  | { type: 'optin-title'; title: string }
  | { type: 'utility'; utility?: UtilityContent }
  | { type: 'budget-kind'; kind: BudgetKind }
  | { type: 'budget-amount'; amount: string }
  | { type: 'reset' }

/** Step 2 needs recipients; step 3 needs recipients and a content type. */
export function canOpen(step: StepNo, state: WizardState, recipients: number): boolean {
  if (step === 1) return true
  if (recipients === 0 || !hasAudience(state)) return false
  return step === 2 || state.content !== undefined
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'toggle-step': {
      if (!state.open[action.step] && !canOpen(action.step, state, action.recipients)) return state
      return { ...state, open: { ...state.open, [action.step]: !state.open[action.step] } }
    }
    case 'toggle-label': {
      const has = state.labels.includes(action.label)
      const labels = has ? state.labels.filter((l) => l !== action.label) : [...state.labels, action.label]
      // Everyone (either of the two) and a page label exclude each other.
      const next = { ...state, labels, pageLabels: has ? state.pageLabels : [] }
      return hasAudience(next) ? next : { ...next, open: { 1: true, 2: false, 3: false } }
    }
    case 'toggle-page-label': {
      const has = state.pageLabels.includes(action.id)
      const pageLabels = has
        ? state.pageLabels.filter((l) => l !== action.id)
        : [...state.pageLabels, action.id]
      const next = { ...state, pageLabels, labels: has ? state.labels : [] }
      return hasAudience(next) ? next : { ...next, open: { 1: true, 2: false, 3: false } }
    }
    case 'label-match':
      return { ...state, labelMatch: action.match }
    case 'name-fallback':
      return { ...state, nameFallback: action.word }
    case 'content':
      // Choosing a message content leaves "Ask to subscribe".
      return { ...state, content: action.content, kind: 'text' }
    case 'group':
      return { ...state, groups: { ...state.groups, [action.group]: action.on } }
    case 'kind':
      return { ...state, kind: action.kind }
    case 'optin-title':
      return { ...state, optinTitle: action.title }
    case 'utility':
      return action.utility ? { ...state, utility: action.utility } : { ...state, utility: undefined }
    case 'budget-kind':
      return { ...state, budgetKind: action.kind }
    case 'budget-amount':
      return { ...state, budgetAmount: action.amount }
    case 'text':
      return { ...state, text: action.text }
    case 'image':
      return action.image ? { ...state, image: action.image } : { ...state, image: undefined }
    case 'reset':
      // After a successful start everything is cleared, labels included (docs/product-rules.md#bulk-wizard).
      return initialWizard([])
  }
}

/**
 * Who the send goes to, by group: an opt-in request goes only inside the window (the network refuses it
 * outside), so it never takes the subscribers' group. An update from a template (a utility message) reaches
 * every chosen customer, inside the window or not, with no campaign: all of them go as the one group.
 */
export function chosenGroups<T>(
  state: Pick<WizardState, 'groups' | 'kind'>,
  split: { standard: readonly T[]; marketing: readonly T[]; none?: readonly { item: T }[] },
): { standard: readonly T[]; marketing: readonly T[] } {
  if (state.kind === 'utility')
    return {
      standard: [...split.standard, ...split.marketing, ...(split.none ?? []).map((n) => n.item)],
      marketing: [],
    }
  return {
    standard: state.groups.standard ? split.standard : [],
    marketing: state.groups.marketing && state.kind === 'text' ? split.marketing : [],
  }
}

/** An audience is chosen: everyone (either of the two) or some of the page's labels. */
export function hasAudience(state: Pick<WizardState, 'labels' | 'pageLabels'>): boolean {
  return state.labels.length > 0 || state.pageLabels.length > 0
}

/**
 * Either of the two selects every loaded bulk customer; page labels select the customers with any (or all)
 * of them, as the device knows each customer's labels; nothing chosen selects nobody.
 */
export function selectedRecipients<T extends { recipientId: string }>(
  state: Pick<WizardState, 'labels' | 'pageLabels' | 'labelMatch'>,
  loaded: readonly T[],
  labelsOf?: ReadonlyMap<string, readonly string[]>,
): readonly T[] {
  if (state.pageLabels.length > 0) {
    const audience = { match: state.labelMatch, labelIds: state.pageLabels }
    return loaded.filter((c) => inLabelAudience(audience, labelsOf?.get(c.recipientId)))
  }
  return state.labels.length > 0 ? loaded : []
}

export function isImageFile(file: { type: string }): boolean {
  return file.type.startsWith('image/')
}

/** Sends estimated longer than this offer "Keep sending when I close the app" switched on. */
export const KEEP_SENDING_AFTER_MS = 3 * 60_000

/** On by default when the send would take more than a few minutes at the mandated pacing. */
export function keepSendingByDefault(recipients: number): boolean {
  return recipients * ((SEND_DELAY_MIN_MS + SEND_DELAY_MAX_MS) / 2) > KEEP_SENDING_AFTER_MS
}

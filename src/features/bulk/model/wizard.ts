/** The wizard's state and its rules (spec section 4, "Bulk wizard"). Pure: the components only dispatch. */
import { SEND_DELAY_MAX_MS, SEND_DELAY_MIN_MS } from '../../../shared/constants/limits.ts'
import type { AudienceLabel } from '../../../shared/constants/limits.ts'
import type { ContentType } from '../../../shared/policy/messaging.ts'

export type StepNo = 1 | 2 | 3

export interface WizardState {
  open: Record<StepNo, boolean>
  labels: AudienceLabel[]
  content?: ContentType
  text: string
  image?: File
}

export const initialWizard = (labels: AudienceLabel[] = ['all_labels']): WizardState => ({
  open: { 1: true, 2: false, 3: false },
  labels,
  text: '',
})

export type WizardAction =
  | { type: 'toggle-step'; step: StepNo; recipients: number }
  | { type: 'toggle-label'; label: AudienceLabel }
  | { type: 'content'; content: ContentType }
  | { type: 'text'; text: string }
  | { type: 'image'; image?: File }
  | { type: 'reset' }

/** Step 2 needs recipients; step 3 needs recipients and a content type. */
export function canOpen(step: StepNo, state: WizardState, recipients: number): boolean {
  if (step === 1) return true
  if (recipients === 0 || state.labels.length === 0) return false
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
      return { ...state, labels, ...(labels.length === 0 ? { open: { 1: true, 2: false, 3: false } } : {}) }
    }
    case 'content':
      return { ...state, content: action.content }
    case 'text':
      return { ...state, text: action.text }
    case 'image':
      return action.image ? { ...state, image: action.image } : { ...state, image: undefined }
    case 'reset':
      // After a successful start everything is cleared, labels included (spec section 4).
      return initialWizard([])
  }
}

/** Either label selects every loaded bulk customer; none selects nobody. */
export function selectedRecipients<T>(state: WizardState, loaded: readonly T[]): readonly T[] {
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

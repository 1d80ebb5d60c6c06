import { describe, expect, it } from 'vitest'
import { DEFAULT_OPTIN_TITLE } from '../../../core/contracts/marketing.ts'
import {
  canOpen,
  chosenGroups,
  initialWizard,
  isImageFile,
  selectedRecipients,
  wizardReducer,
} from './wizard.ts'

describe('the bulk wizard', () => {
  it('opens on the audience step with all_labels selected', () => {
    const s = initialWizard()
    expect(s.open).toEqual({ 1: true, 2: false, 3: false })
    expect(s.labels).toEqual(['all_labels'])
  })

  it('opens step 2 only with recipients and step 3 only with a content type too', () => {
    let s = initialWizard()
    expect(wizardReducer(s, { type: 'toggle-step', step: 2, recipients: 0 }).open[2]).toBe(false)
    s = wizardReducer(s, { type: 'toggle-step', step: 2, recipients: 5 })
    expect(s.open[2]).toBe(true)
    expect(canOpen(3, s, 5)).toBe(false)
    s = wizardReducer(s, { type: 'content', content: 'STANDARD' })
    expect(wizardReducer(s, { type: 'toggle-step', step: 3, recipients: 5 }).open[3]).toBe(true)
  })

  it('toggles step headers closed again', () => {
    const s = wizardReducer(initialWizard(), { type: 'toggle-step', step: 1, recipients: 0 })
    expect(s.open[1]).toBe(false)
  })

  const three = ['1', '2', '3'].map((recipientId) => ({ recipientId }))

  it('selects all loaded customers with either label and nobody with none', () => {
    let s = initialWizard()
    expect(selectedRecipients(s, three)).toHaveLength(3)
    s = wizardReducer(s, { type: 'toggle-label', label: 'no_labels' })
    expect(selectedRecipients(s, three)).toHaveLength(3)
    s = wizardReducer(s, { type: 'toggle-label', label: 'all_labels' })
    s = wizardReducer(s, { type: 'toggle-label', label: 'no_labels' })
    expect(selectedRecipients(s, three)).toHaveLength(0)
  })

  it('selects the customers with any of the chosen page labels, or with all of them', () => {
    const labelsOf = new Map([
      ['1', ['vip']],
      ['2', ['vip', 'size-m']],
      ['3', ['size-m']],
    ])
    let s = wizardReducer(initialWizard(), { type: 'toggle-page-label', id: 'vip' })
    expect(s.labels).toEqual([])
    expect(selectedRecipients(s, three, labelsOf).map((c) => c.recipientId)).toEqual(['1', '2'])
    s = wizardReducer(s, { type: 'toggle-page-label', id: 'size-m' })
    expect(selectedRecipients(s, three, labelsOf).map((c) => c.recipientId)).toEqual(['1', '2', '3'])
    s = wizardReducer(s, { type: 'label-match', match: 'all' })
    expect(selectedRecipients(s, three, labelsOf).map((c) => c.recipientId)).toEqual(['2'])
    // A customer whose labels are not known yet is not taken.
    expect(selectedRecipients(s, three, new Map())).toEqual([])
    // Everyone again: the page labels are let go.
    s = wizardReducer(s, { type: 'toggle-label', label: 'all_labels' })
    expect(s.pageLabels).toEqual([])
    expect(selectedRecipients(s, three, labelsOf)).toHaveLength(3)
  })

  it('closes the later steps when no audience is left', () => {
    let s = wizardReducer(initialWizard(), { type: 'toggle-page-label', id: 'vip' })
    s = wizardReducer(s, { type: 'toggle-step', step: 2, recipients: 2 })
    expect(s.open[2]).toBe(true)
    s = wizardReducer(s, { type: 'toggle-page-label', id: 'vip' })
    expect(s.open).toEqual({ 1: true, 2: false, 3: false })
  })

  it('clears everything and returns to step 1 after a successful start', () => {
    let s = wizardReducer(initialWizard(), { type: 'text', text: 'hello' })
    s = wizardReducer(s, { type: 'content', content: 'STANDARD' })
    s = wizardReducer(s, { type: 'reset' })
    expect(s).toEqual({ ...initialWizard([]), open: { 1: true, 2: false, 3: false }, labels: [], text: '' })
    expect(s.content).toBeUndefined()
  })

  it('accepts image files only', () => {
    expect(isImageFile({ type: 'image/png' })).toBe(true)
    expect(isImageFile({ type: 'application/pdf' })).toBe(false)
  })
})

describe('the reach groups of the wizard', () => {
  const split = { standard: ['a', 'b'], marketing: ['s'] }

  it('sends to both groups by default and to either alone when the owner unticks the other', () => {
    let s = initialWizard()
    expect(chosenGroups(s, split)).toEqual({ standard: ['a', 'b'], marketing: ['s'] })
    s = wizardReducer(s, { type: 'group', group: 'standard', on: false })
    expect(chosenGroups(s, split)).toEqual({ standard: [], marketing: ['s'] })
    s = wizardReducer(s, { type: 'group', group: 'marketing', on: false })
    expect(chosenGroups(s, split)).toEqual({ standard: [], marketing: [] })
  })

  it('asks to subscribe only inside the window, with the default title, and a message content leaves it', () => {
    let s = wizardReducer(initialWizard(), { type: 'kind', kind: 'optin_request' })
    expect(s.optinTitle).toBe(DEFAULT_OPTIN_TITLE)
    expect(chosenGroups(s, split)).toEqual({ standard: ['a', 'b'], marketing: [] })
    s = wizardReducer(s, { type: 'content', content: 'STANDARD' })
    expect(s.kind).toBe('text')
    expect(chosenGroups(s, split).marketing).toEqual(['s'])
  })

  it('sends an update from a template to every chosen customer, outside the window too, and forgets it after a start', () => {
    const withNone = { ...split, none: [{ item: 'x', why: 'outside_window' as const }] }
    let s = wizardReducer(initialWizard(), { type: 'group', group: 'standard', on: false })
    s = wizardReducer(s, { type: 'kind', kind: 'utility' })
    expect(chosenGroups(s, withNone)).toEqual({ standard: ['a', 'b', 's', 'x'], marketing: [] })
    const utility = {
      name: 'event_reminder',
      language: 'en_US',
      body: 'Hi {{1}}, {{2}}',
      params: ['{first name}', 'Fri'],
    }
    s = wizardReducer(s, { type: 'utility', utility })
    expect(s.utility).toEqual(utility)
    s = wizardReducer(s, { type: 'content', content: 'STANDARD' })
    expect(s.kind).toBe('text')
    expect(chosenGroups(s, withNone)).toEqual({ standard: [], marketing: ['s'] })
    s = wizardReducer(wizardReducer(s, { type: 'kind', kind: 'utility' }), { type: 'reset' })
    expect([s.kind, s.utility]).toEqual(['text', undefined])
  })

  it('clears the budget and the title after a start', () => {
    let s = wizardReducer(initialWizard(), { type: 'budget-amount', amount: '50' })
    s = wizardReducer(s, { type: 'optin-title', title: 'News' })
    s = wizardReducer(s, { type: 'reset' })
    expect([s.budgetAmount, s.optinTitle, s.kind]).toEqual(['', DEFAULT_OPTIN_TITLE, 'text'])
  })
})

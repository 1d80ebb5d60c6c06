import { describe, expect, it } from 'vitest'
import { canOpen, initialWizard, isImageFile, selectedRecipients, wizardReducer } from './wizard.ts'

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

  it('selects all loaded customers with either label and nobody with none', () => {
    let s = initialWizard()
    expect(selectedRecipients(s, [1, 2, 3])).toHaveLength(3)
    s = wizardReducer(s, { type: 'toggle-label', label: 'no_labels' })
    expect(selectedRecipients(s, [1, 2, 3])).toHaveLength(3)
    s = wizardReducer(s, { type: 'toggle-label', label: 'all_labels' })
    s = wizardReducer(s, { type: 'toggle-label', label: 'no_labels' })
    expect(selectedRecipients(s, [1, 2, 3])).toHaveLength(0)
  })

  it('clears everything and returns to step 1 after a successful start', () => {
    let s = wizardReducer(initialWizard(), { type: 'text', text: 'hello' })
    s = wizardReducer(s, { type: 'content', content: 'STANDARD' })
    s = wizardReducer(s, { type: 'reset' })
    expect(s).toEqual({ open: { 1: true, 2: false, 3: false }, labels: [], text: '' })
  })

  it('accepts image files only', () => {
    expect(isImageFile({ type: 'image/png' })).toBe(true)
    expect(isImageFile({ type: 'application/pdf' })).toBe(false)
  })
})

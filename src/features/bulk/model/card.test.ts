import { describe, expect, it } from 'vitest'
import { cardView, overlay, progressPercent, stripSummary, type CardJob } from './card.ts'

const job = (over: Partial<CardJob> = {}): CardJob => ({
  id: '1',
  pageName: 'P',
  text: 'hi',
  state: 'running',
  createdAt: 0,
  sent: 3,
  rejected: 1,
  skipped: 0,
  total: 10,
  ...over,
})

describe('a progress card', () => {
  it('caps the progress at 100 percent', () => {
    expect(progressPercent({ sent: 12, rejected: 0, skipped: 0, total: 10 })).toBe(100)
    expect(progressPercent({ sent: 3, rejected: 1, skipped: 0, total: 10 })).toBe(40)
  })

  it('offers pause while sending and resume while paused', () => {
    expect(cardView(job())).toMatchObject({ phase: 'sending', canPause: true, canResume: false })
    expect(cardView(job({ state: 'paused' }))).toMatchObject({
      canPause: false,
      canResume: true,
      canCancel: true,
    })
    expect(cardView(job({ state: 'finished' }))).toMatchObject({ phase: 'done', canCancel: false })
  })

  it('offers pause and cancel of a job the server is sending', () => {
    expect(cardView(job({ state: 'on_server' }))).toMatchObject({
      phase: 'sending',
      canPause: true,
      canResume: false,
      canCancel: true,
    })
  })

  it('splits a stop reason into its code and the provider detail', () => {
    expect(cardView(job({ state: 'stopped', stopReason: 'page_blocked:Blocked: abuse' }))).toMatchObject({
      stopCode: 'page_blocked',
      stopDetail: 'Blocked: abuse',
    })
  })

  it('lets a newer progress event win over an older read, never an older one', () => {
    const newer = { state: 'finished' as const, counts: { sent: 9, rejected: 1, skipped: 0, total: 10 } }
    const same = { state: 'running' as const, counts: { sent: 3, rejected: 1, skipped: 0, total: 10 } }
    expect(overlay(job({ state: 'paused' }), same).state).toBe('paused')
    expect(overlay(job(), newer)).toMatchObject({ sent: 9, state: 'finished' })
    const older = { state: 'running' as const, counts: { sent: 1, rejected: 0, skipped: 0, total: 10 } }
    expect(overlay(job(), older).sent).toBe(3)
  })
})

describe('the collapsed strip of the cards on a phone', () => {
  it('adds up the jobs still sending and leaves finished ones out of the count', () => {
    const summary = stripSummary([
      job({ id: 'a', sent: 12, total: 310 }),
      job({ id: 'b', sent: 5, total: 20 }),
      job({ id: 'c', state: 'finished', sent: 26, total: 26 }),
    ])
    expect(summary).toEqual({ active: true, sent: 17, total: 330, rejected: 2, doneIds: ['c'] })
  })

  it('tells every outcome once nothing is sending, and every card can then be dismissed', () => {
    const summary = stripSummary([
      job({ id: 'a', state: 'finished', sent: 25, rejected: 1, total: 26 }),
      job({ id: 'b', state: 'stopped', sent: 2, rejected: 0, total: 4 }),
    ])
    expect(summary).toEqual({ active: false, sent: 27, total: 30, rejected: 1, doneIds: ['a', 'b'] })
  })
})

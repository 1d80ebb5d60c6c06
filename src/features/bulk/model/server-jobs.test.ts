import { describe, expect, it } from 'vitest'
import { storedMessage, type StoredMessage } from '../../../core/contracts/api.ts'
import { cardView, stripSummary, type CardJob } from './card.ts'
import { ofPage, remoteCard, withServerJobs } from './server-jobs.ts'

const stored = (over: Partial<StoredMessage>): StoredMessage =>
  storedMessage.parse({
    id: '1',
    page_id: 'kanha',
    page_name: 'Kanha',
    message: 'Hello',
    image_url: null,
    tag: null,
    label: '[]',
    total_messages: 39,
    branded_messages_amount: 0,
    ok_count: 0,
    ng_count: 0,
    state: 'open',
    stop_reason: null,
    created_at: '2026-11-26T10:00:00.000Z',
    ...over,
  })

const local = (over: Partial<CardJob>): CardJob => ({
  id: '1',
  pageId: 'kanha',
  pageName: '',
  text: 'Hello',
  state: 'paused',
  stopReason: 'resumed_from_server',
  createdAt: 1,
  sent: 0,
  rejected: 5,
  skipped: 0,
  total: 39,
  ...over,
})

describe("the cards' list with the server's jobs", () => {
  it('shows a job the server sends that this device does not hold, with its live counts, read-only', () => {
    const [card] = withServerJobs(
      [],
      [stored({ sender: 'server', ok_count: 7, server_state: 'running' })],
      new Map(),
    )
    expect(card).toMatchObject({ id: '1', state: 'on_server', sent: 7, pageName: 'Kanha', remote: 'server' })
    expect(cardView(card!)).toMatchObject({
      headline: 'sending',
      canPause: true,
      canCancel: true,
      canResume: false,
      canResumeMarketing: false,
    })
  })

  it('shows a job another device sends without controls, and leaves scheduled and cancelled sends to their list', () => {
    const list = withServerJobs(
      [],
      [stored({ id: '2' }), stored({ id: '3', state: 'scheduled' }), stored({ id: '4', state: 'cancelled' })],
      new Map(),
    )
    expect(list.map((c) => [c.id, c.state, c.remote])).toEqual([['2', 'running', 'device']])
    expect(cardView(list[0]!)).toMatchObject({ canPause: false, canCancel: false, canResume: false })
  })

  it("gives a card rebuilt here the page's name and the server's counts", () => {
    const [card] = withServerJobs(
      [local({})],
      [stored({ page_name: null, ok_count: 12, ng_count: 5, delivered_count: 3, read_count: 1 })],
      new Map([['kanha', 'Kanha Crafts']]),
    )
    expect(card).toMatchObject({ pageName: 'Kanha Crafts', sent: 12, rejected: 5, delivered: 3, read: 1 })
    expect(card!.remote).toBeUndefined()
    // Paused reads as paused with its counts, never "Sending 0/39".
    expect(cardView(card!).headline).toBe('paused')
  })

  it('shows the end the server recorded for a job this device keeps paused', () => {
    const [finished] = withServerJobs(
      [local({})],
      [stored({ state: 'finished', ok_count: 39, ng_count: 0 })],
      new Map(),
    )
    expect(finished).toMatchObject({ state: 'finished', sent: 39 })
    expect(finished!.stopReason).toBeUndefined()
    expect(cardView(finished!).headline).toBe('finished')
    const [cancelled] = withServerJobs(
      [local({ state: 'paused', stopReason: undefined })],
      [stored({ state: 'stopped', stop_reason: 'cancelled' })],
      new Map(),
    )
    expect(cancelled).toMatchObject({ state: 'stopped', stopReason: 'cancelled' })
    // Resumed here while the list still has the server's stop: this device's state is the newer.
    const [resumed] = withServerJobs(
      [local({ state: 'on_server', stopReason: undefined })],
      [stored({ state: 'stopped', stop_reason: 'marketing:campaign_paused' })],
      new Map(),
    )
    expect(resumed!.state).toBe('on_server')
    // A job still open on the server keeps this device's state.
    const [paused] = withServerJobs([local({})], [stored({})], new Map())
    expect(paused!.state).toBe('paused')
  })

  it('never gives a stopped job the success headline', () => {
    const card = remoteCard(stored({ state: 'stopped', stop_reason: 'cancelled', ok_count: 0 }), undefined)!
    expect(cardView(card)).toMatchObject({ headline: 'stopped', phase: 'done' })
    expect(cardView({ ...card, state: 'finished' }).headline).toBe('finished')
  })

  it("shows only the page's own jobs on that page, and the strip counts them right", () => {
    const list = withServerJobs(
      [local({ id: 'a', pageId: 'sunrise', state: 'running', sent: 4, rejected: 0, total: 40 })],
      [
        stored({ id: 'a', page_id: 'sunrise', ok_count: 5, total_messages: 40 }),
        stored({ id: 'b', page_id: 'kanha', sender: 'server', ok_count: 28, total_messages: 39 }),
      ],
      new Map(),
    )
    const kanha = ofPage(list, 'kanha')
    expect(kanha.map((c) => c.id)).toEqual(['b'])
    expect(stripSummary(kanha)).toMatchObject({ active: true, sent: 28, total: 39 })
    expect(stripSummary(ofPage(list, undefined))).toMatchObject({ sent: 33, total: 79 })
  })
})

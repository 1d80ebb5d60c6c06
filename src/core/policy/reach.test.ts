import { describe, expect, it } from 'vitest'
import { splitByWindow, WINDOW_SAFETY_MS } from './messaging.ts'
import { countWhy, reachFor, splitAudience } from './reach.ts'

const HOUR = 3_600_000
const now = Date.UTC(2026, 10, 23, 12)

describe('the way to reach a customer', () => {
  it('reaches a customer inside the window with a free standard message, subscribed or not', () => {
    for (const subscribed of [true, false])
      for (const marketingOn of [true, false])
        expect(
          reachFor('current', { lastCustomerMessageAt: now - HOUR, subscribed, marketingOn }, now),
        ).toEqual({
          way: 'standard',
        })
  })

  it('keeps the bulk safety margin: a customer 23 hours or more ago is outside', () => {
    const edge = now - WINDOW_SAFETY_MS
    expect(
      reachFor('current', { lastCustomerMessageAt: edge + 1, subscribed: false, marketingOn: true }, now),
    ).toEqual({
      way: 'standard',
    })
    expect(
      reachFor('current', { lastCustomerMessageAt: edge, subscribed: false, marketingOn: true }, now),
    ).toEqual({
      way: 'none',
      why: 'not_subscribed',
    })
  })

  it('reaches a subscriber outside the window by marketing message only when the page has them on', () => {
    const input = { lastCustomerMessageAt: now - 48 * HOUR, subscribed: true }
    expect(reachFor('current', { ...input, marketingOn: true }, now)).toEqual({ way: 'marketing' })
    expect(reachFor('current', { ...input, marketingOn: false }, now)).toEqual({
      way: 'none',
      why: 'marketing_off',
    })
  })

  it('reaches a subscriber with no known message by marketing message too', () => {
    expect(reachFor('current', { subscribed: true, marketingOn: true }, now)).toEqual({ way: 'marketing' })
    expect(
      reachFor('current', { lastCustomerMessageAt: NaN, subscribed: true, marketingOn: true }, now),
    ).toEqual({
      way: 'marketing',
    })
  })

  it('says why the rest are out of reach', () => {
    const old = now - 72 * HOUR
    expect(
      reachFor('current', { lastCustomerMessageAt: old, subscribed: false, marketingOn: true }, now),
    ).toEqual({
      way: 'none',
      why: 'not_subscribed',
    })
    expect(
      reachFor('current', { lastCustomerMessageAt: old, subscribed: false, marketingOn: false }, now),
    ).toEqual({
      way: 'none',
      why: 'outside_window',
    })
    for (const marketingOn of [true, false])
      expect(reachFor('current', { subscribed: false, marketingOn }, now)).toEqual({
        way: 'none',
        why: 'no_customer_message',
      })
  })

  it('leaves the legacy policy unchanged: everyone through the tag', () => {
    for (const lastCustomerMessageAt of [undefined, now - HOUR, now - 30 * 24 * HOUR])
      for (const subscribed of [true, false])
        expect(reachFor('legacy', { lastCustomerMessageAt, subscribed, marketingOn: true }, now)).toEqual({
          way: 'legacy_tag',
          tag: 'CONFIRMED_EVENT_UPDATE',
        })
  })
})

interface C {
  id: string
  at?: number
}

const people: C[] = [
  { id: 'in1', at: now - HOUR },
  { id: 'sub-out', at: now - 50 * HOUR },
  { id: 'old', at: now - 50 * HOUR },
  { id: 'in2', at: now - 2 * HOUR },
  { id: 'sub-never' },
  { id: 'never' },
]
const subscribers = new Set(['sub-out', 'sub-never', 'in2'])

describe('splitting an audience in three groups', () => {
  it('puts the window first, then subscribers, then the rest with their reason, each in order', () => {
    const split = splitAudience(
      'current',
      people,
      (c) => c.at,
      (c) => subscribers.has(c.id),
      true,
      now,
    )
    expect(split.standard.map((c) => c.id)).toEqual(['in1', 'in2'])
    expect(split.marketing.map((c) => c.id)).toEqual(['sub-out', 'sub-never'])
    expect(split.none.map((n) => [n.item.id, n.why])).toEqual([
      ['old', 'not_subscribed'],
      ['never', 'no_customer_message'],
    ])
  })

  it('with marketing off nobody goes by marketing message and the subscribers are told why', () => {
    const split = splitAudience(
      'current',
      people,
      (c) => c.at,
      (c) => subscribers.has(c.id),
      false,
      now,
    )
    expect(split.marketing).toEqual([])
    expect(countWhy(split.none)).toEqual({
      marketing_off: 2,
      outside_window: 1,
      no_customer_message: 1,
      not_subscribed: 0,
    })
  })

  it('agrees with splitByWindow on the standard group, and under legacy takes everyone as before', () => {
    const byWindow = splitByWindow('current', people, (c) => c.at, now)
    const split = splitAudience(
      'current',
      people,
      (c) => c.at,
      () => false,
      true,
      now,
    )
    expect(split.standard).toEqual(byWindow.inside)
    expect(split.none.map((n) => n.item)).toEqual(byWindow.outside)

    const legacy = splitAudience(
      'legacy',
      people,
      (c) => c.at,
      (c) => subscribers.has(c.id),
      true,
      now,
    )
    expect(legacy).toEqual({ standard: people, marketing: [], none: [] })
    expect(splitByWindow('legacy', people, (c) => c.at, now)).toEqual({ inside: people, outside: [] })
  })
})

import { describe, expect, it } from 'vitest'
import { MAX_SEND_RECIPIENTS, MEAN_SEND_WAIT_MS, reachableInWindow, soonestClosingFirst } from './reach.ts'

const HOUR = 3_600_000
const now = Date.UTC(2026, 11, 1, 12)

describe('a long send and the window', () => {
  it('sends those whose window closes soonest first, the unknown last, ties in the order given', () => {
    const people = [
      { id: 'a', at: now - 1 * HOUR },
      { id: 'b', at: now - 20 * HOUR },
      { id: 'c', at: undefined },
      { id: 'd', at: now - 20 * HOUR },
      { id: 'e', at: now - 5 * HOUR },
    ]
    expect(soonestClosingFirst(people, (p) => p.at).map((p) => p.id)).toEqual(['b', 'd', 'e', 'a', 'c'])
  })

  it('counts who the mandated pace reaches before their window closes', () => {
    // 10,000 customers who wrote 22 hours ago: an hour of margin is left, about 3,130 sends at the pace.
    const late = Array.from({ length: 10_000 }, () => now - 22 * HOUR)
    expect(reachableInWindow(late, (at) => at, now)).toBe(Math.ceil(HOUR / MEAN_SEND_WAIT_MS))
    // Sent newest first, a mixed audience loses those at the end; soonest-closing first keeps more of them.
    const mixed = [
      ...Array.from({ length: 3_000 }, () => now - HOUR),
      ...Array.from({ length: 3_000 }, () => now - 22 * HOUR),
    ]
    const newestFirst = reachableInWindow(mixed, (at) => at, now)
    const soonestFirst = reachableInWindow(
      soonestClosingFirst(mixed, (at) => at),
      (at) => at,
      now,
    )
    // Newest first, the 22-hour ones start after 57.5 minutes: only 131 of them are still inside.
    expect(newestFirst).toBe(3_131)
    expect(soonestFirst).toBe(6_000)
  })

  it('allows a send of at most a day at the mandated pace', () => {
    expect(MAX_SEND_RECIPIENTS).toBe(75_130)
    expect(MAX_SEND_RECIPIENTS * MEAN_SEND_WAIT_MS).toBeLessThanOrEqual(24 * HOUR)
  })
})

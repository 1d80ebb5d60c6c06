/**
 * Long sends and the messaging window: at the mandated pace (a mean wait of 1,150 ms between two sends) a page
 * reaches about 75,000 people a day, so the order of a long send decides who is still inside their 24-hour
 * window when their turn comes. Those whose window closes soonest go first, the wizard says how many the pace
 * reaches in time, and no send may last longer than a day. Pure.
 */
import { SEND_DELAY_MAX_MS, SEND_DELAY_MIN_MS } from '../constants/limits.ts'
import { BULK_SAFETY_WINDOW_MS } from '../policy/window.ts'

/** The mean wait between two sends at the mandated pace. */
export const MEAN_SEND_WAIT_MS = (SEND_DELAY_MIN_MS + SEND_DELAY_MAX_MS) / 2

const DAY_MS = 24 * 60 * 60 * 1000

/** The most recipients one send may have: what the mandated pace sends in a day. */
export const MAX_SEND_RECIPIENTS = Math.floor(DAY_MS / MEAN_SEND_WAIT_MS)

/**
 * The recipients in the order a long send reaches them in time: the oldest last message (the window that
 * closes soonest) first; those without a known last message last; otherwise in the order given.
 */
export function soonestClosingFirst<T>(items: readonly T[], lastAt: (item: T) => number | undefined): T[] {
  return items
    .map((item, i) => ({ item, i, at: lastAt(item) }))
    .sort((a, b) => (a.at ?? Infinity) - (b.at ?? Infinity) || a.i - b.i)
    .map((x) => x.item)
}

/**
 * How many of `items`, sent in this order from `now` one mean wait apart, are still inside the window (with its
 * safety margin) when their turn comes.
 */
export function reachableInWindow<T>(
  items: readonly T[],
  lastAt: (item: T) => number | undefined,
  now: number,
): number {
  let reached = 0
  items.forEach((item, i) => {
    const at = lastAt(item)
    if (at !== undefined && now + i * MEAN_SEND_WAIT_MS < at + BULK_SAFETY_WINDOW_MS) reached++
  })
  return reached
}

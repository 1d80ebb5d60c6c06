/** Message histories, generated from the seed on first read so a large page costs little memory. */
import type { DemoConversation, StoredMessage } from './demo.ts'
import { CUSTOMER_TEXTS, PAGE_TEXTS } from './names.ts'
import { int, mulberry32, pick, subSeed } from './prng.ts'

const DAY = 24 * 3_600_000

/**
 * The seeded part of a conversation's history, oldest first; ends with the summary's last message(s), whose
 * text is `snippet` (the conversation's snippet as seeded). `newest` keeps only that many of its newest
 * messages: they are drawn first, so the older ones are never made.
 */
export function generateHistory(
  seed: number,
  conv: DemoConversation,
  newest: number = conv.historyLength,
  snippet: string = conv.snippet,
): StoredMessage[] {
  const rng = mulberry32(subSeed(seed, `history:${conv.id}`))
  const n = conv.historyLength
  const msgs: StoredMessage[] = []
  let t = conv.lastCustomerMs
  const tail = conv.lastFromPage ? 2 : 1
  // The page's answer after the customer's last message is not drawn in the walk back below.
  const drawn = Math.min(n - tail + 1, newest - (conv.lastFromPage ? 1 : 0))
  for (let k = n - tail; k > n - tail - drawn; k--) {
    const fromPage = k === 0 ? false : k === n - tail ? false : rng() < 0.45
    const text = k === n - 1 ? snippet : fromPage ? pick(rng, PAGE_TEXTS) : pick(rng, CUSTOMER_TEXTS)
    msgs.push({ id: `m_${conv.id.slice(2)}${String(k).padStart(3, '0')}`, createdMs: t, fromPage, text })
    t -= int(rng, 2 * 60_000, 2 * DAY)
  }
  msgs.reverse()
  if (conv.lastFromPage && newest > 0) {
    msgs.push({
      id: `m_${conv.id.slice(2)}${String(n - 1).padStart(3, '0')}`,
      createdMs: conv.updatedMs,
      fromPage: true,
      text: snippet,
    })
  }
  return msgs
}

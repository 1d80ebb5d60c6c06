/** Message histories, generated from the seed on first read so a large page costs little memory. */
import type { DemoConversation, StoredMessage } from './demo.ts'
import { CUSTOMER_TEXTS, PAGE_TEXTS } from './names.ts'
import { int, mulberry32, pick, subSeed } from './prng.ts'

const DAY = 24 * 3_600_000

/** The seeded part of a conversation's history, oldest first; ends with the summary's last message(s). */
export function generateHistory(seed: number, conv: DemoConversation): StoredMessage[] {
  const rng = mulberry32(subSeed(seed, `history:${conv.id}`))
  const n = conv.historyLength
  const msgs: StoredMessage[] = []
  let t = conv.lastCustomerMs
  const tail = conv.lastFromPage ? 2 : 1
  for (let k = n - tail; k >= 0; k--) {
    const fromPage = k === 0 ? false : k === n - tail ? false : rng() < 0.45
    const text = k === n - 1 ? conv.snippet : fromPage ? pick(rng, PAGE_TEXTS) : pick(rng, CUSTOMER_TEXTS)
    msgs.push({ id: `m_${conv.id.slice(2)}${String(k).padStart(3, '0')}`, createdMs: t, fromPage, text })
    t -= int(rng, 2 * 60_000, 2 * DAY)
  }
  msgs.reverse()
  if (conv.lastFromPage) {
    msgs.push({
      id: `m_${conv.id.slice(2)}${String(n - 1).padStart(3, '0')}`,
      createdMs: conv.updatedMs,
      fromPage: true,
      text: conv.snippet,
    })
  }
  return msgs
}

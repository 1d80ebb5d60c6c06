import { describe, expect, it } from 'vitest'
import { demoConversations, demoPageIds, demoPages } from './demo.ts'
import { generateHistory } from './history.ts'
import { SandboxStore } from './store.ts'
import { DEMO_SUBSCRIBERS_INSIDE, DEMO_SUBSCRIBERS_OUTSIDE, MarketingState } from '../marketing/state.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const START = Date.UTC(2026, 10, 22, 12)

describe('demo data', () => {
  it('is the same for the same seed and different for another', () => {
    const a = new SandboxStore(11, START)
    const b = new SandboxStore(11, START)
    const ids = demoPageIds(11)
    expect(a.conversationsOf(ids.large)).toEqual(b.conversationsOf(ids.large))
    const conv = a.conversationsOf(ids.large)[100]!
    expect(a.messagesOf(conv)).toEqual(b.messagesOf(b.conversation(conv.id)!))
    expect(demoPageIds(12)).not.toEqual(ids)
  })

  it('gives the large page at least 1,200 conversations: a few hundred inside 24 h, some 1–7 days, most older', () => {
    const ids = demoPageIds(3)
    const page = demoPages(3).find((p) => p.id === ids.large)!
    const convs = demoConversations(3, page, START)
    const age = (c: (typeof convs)[number]) => START - c.lastCustomerMs
    expect(convs.length).toBeGreaterThanOrEqual(1_200)
    const day = convs.filter((c) => age(c) < DAY).length
    const week = convs.filter((c) => age(c) >= DAY && age(c) < 7 * DAY).length
    expect(day).toBeGreaterThanOrEqual(200)
    expect(day).toBeLessThan(500)
    expect(week).toBeGreaterThan(50)
    expect(convs.length - day - week).toBeGreaterThan(convs.length / 2)
    expect(convs.some((c) => !c.canReply)).toBe(true)
    expect(convs.some((c) => c.blocked)).toBe(true)
    expect(new Set(convs.map((c) => c.id)).size).toBe(convs.length)
  })

  it('gives the large page fewer conversations when asked, in the same shares, and the store and subscribers follow', () => {
    const ids = demoPageIds(3)
    const page = demoPages(3).find((p) => p.id === ids.large)!
    const convs = demoConversations(3, page, START, 320)
    const age = (c: (typeof convs)[number]) => START - c.lastCustomerMs
    expect(convs).toHaveLength(320)
    expect(convs.filter((c) => age(c) < DAY)).toHaveLength(78)
    expect(convs.filter((c) => age(c) >= DAY && age(c) < 7 * DAY)).toHaveLength(60)
    expect(new SandboxStore(3, START, 320).conversationsOf(ids.large)).toHaveLength(320)
    const people = new Map(convs.map((c) => [c.customer.id, c]))
    const subscribers = new MarketingState(3, () => START, 320).tokens.map((t) => people.get(t.psid))
    expect(subscribers.every((c) => c && c.canReply && !c.blocked)).toBe(true)
    expect(subscribers.filter((c) => age(c!) > DAY)).toHaveLength(DEMO_SUBSCRIBERS_OUTSIDE)
    expect(subscribers).toHaveLength(DEMO_SUBSCRIBERS_OUTSIDE + DEMO_SUBSCRIBERS_INSIDE)
    // The default is the whole page.
    expect(demoConversations(3, page, START)).toHaveLength(1_280)
  })

  it('gives the small page about 30 conversations, most inside 24 h and all reachable', () => {
    const ids = demoPageIds(3)
    const convs = demoConversations(
      3,
      demoPages(3).find((p) => p.id === ids.small)!,
      START,
    )
    expect(convs.length).toBeGreaterThanOrEqual(25)
    expect(convs.length).toBeLessThanOrEqual(35)
    expect(convs.filter((c) => START - c.lastCustomerMs < DAY).length).toBeGreaterThan(convs.length * 0.7)
    expect(convs.every((c) => c.canReply && !c.blocked)).toBe(true)
  })

  it('writes names in Latin, Khmer, Bengali and Urdu scripts', () => {
    const ids = demoPageIds(5)
    const names = demoConversations(
      5,
      demoPages(5).find((p) => p.id === ids.large)!,
      START,
    )
      .map((c) => c.customer.name)
      .join(' ')
    expect(names).toMatch(/[A-Za-z]/)
    expect(names).toMatch(/[\u1780-\u17FF]/)
    expect(names).toMatch(/[\u0980-\u09FF]/)
    expect(names).toMatch(/[\u0600-\u06FF]/)
  })

  it('generates histories of 1 to 60 messages that end with the snippet at the updated time', () => {
    const ids = demoPageIds(9)
    const convs = demoConversations(
      9,
      demoPages(9).find((p) => p.id === ids.large)!,
      START,
    )
    const lengths = convs.map((c) => c.historyLength)
    expect(Math.min(...lengths)).toBe(1)
    expect(Math.max(...lengths)).toBeGreaterThan(40)
    expect(Math.max(...lengths)).toBeLessThanOrEqual(60)
    for (const c of convs.slice(0, 200)) {
      const h = generateHistory(9, c)
      expect(h).toHaveLength(c.historyLength)
      expect(h.at(-1)).toMatchObject({ text: c.snippet, createdMs: c.updatedMs })
      expect(h[0]!.fromPage).toBe(false)
      expect(h.every((m, i) => i === 0 || m.createdMs > h[i - 1]!.createdMs)).toBe(true)
      expect(h.filter((m) => !m.fromPage).at(-1)!.createdMs).toBe(c.lastCustomerMs)
    }
  })

  it('live messages move a conversation to the top with the customer window reopened', () => {
    const store = new SandboxStore(4, START)
    const ids = demoPageIds(4)
    const conv = store.liveMessage([ids.small], () => 0.5)!
    expect(store.conversationsOf(ids.small)[0]).toBe(conv)
    expect(Date.now() - conv.lastCustomerMs).toBeLessThan(1_000)
  })
})

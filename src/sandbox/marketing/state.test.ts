import { describe, expect, it } from 'vitest'
import { demoConversations, demoPageIds, demoPages, LARGE_SHAPE } from '../state/demo.ts'
import { DEMO_SUBSCRIBERS_INSIDE, DEMO_SUBSCRIBERS_OUTSIDE, MarketingState } from './state.ts'

const START = Date.UTC(2026, 10, 22, 12)
const DAY = 86_400_000

describe('the marketing demo data', () => {
  it('is the same for the same seed and different for another', () => {
    const a = new MarketingState(11, () => START)
    const b = new MarketingState(11, () => START)
    expect(b.tokens).toEqual(a.tokens)
    expect([...b.adAccounts.values()]).toEqual([...a.adAccounts.values()])
    const c = new MarketingState(12, () => START)
    expect(c.tokens.map((t) => t.token)).not.toEqual(a.tokens.map((t) => t.token))
  })

  it('subscribes reachable customers of the large page: some outside the window, some inside, one stopped', () => {
    const seed = 5
    const state = new MarketingState(seed, () => START)
    const ids = demoPageIds(seed)
    const convs = demoConversations(
      seed,
      demoPages(seed).find((p) => p.id === ids.large)!,
      START,
    )
    const byId = new Map(convs.map((c) => [c.customer.id, c]))
    expect(state.tokens.every((t) => t.pageId === ids.large)).toBe(true)
    const people = state.tokens.map((t) => byId.get(t.psid)!)
    expect(people.every((c) => c.canReply && !c.blocked)).toBe(true)
    expect(new Set(state.tokens.map((t) => t.psid)).size).toBe(state.tokens.length)
    const outside = people.filter((c) => START - c.lastCustomerMs > DAY)
    expect(outside).toHaveLength(DEMO_SUBSCRIBERS_OUTSIDE)
    expect(people).toHaveLength(DEMO_SUBSCRIBERS_OUTSIDE + DEMO_SUBSCRIBERS_INSIDE)
    const stopped = state.tokens.filter((t) => t.status === 'stopped')
    expect(stopped).toHaveLength(1)
    expect(START - byId.get(stopped[0]!.psid)!.lastCustomerMs).toBeGreaterThan(DAY)
    // Most of the large page stays unsubscribed: the wizard's third group ("unreachable") is large.
    expect(convs.length - LARGE_SHAPE.inDay - DEMO_SUBSCRIBERS_OUTSIDE).toBeGreaterThan(500)
  })

  it('gives user demo three ad accounts (MX active, DE active, one disabled) and the second user one', () => {
    const state = new MarketingState(3, () => START)
    expect(
      state.accountsOf('demo').map((a) => [a.name, a.currency, a.business_country_code, a.account_status]),
    ).toEqual([
      ['Tienda Sol Ads', 'MXN', 'MX', 1],
      ['Sol Europe', 'EUR', 'DE', 1],
      ['Old account', 'USD', 'US', 2],
    ])
    expect(state.accountsOf('second')).toHaveLength(1)
  })

  it('puts everything back as seeded on load (sandbox reset)', () => {
    const state = new MarketingState(3, () => START)
    const seeded = structuredClone(state.tokens)
    state.tokens[0]!.status = 'stopped'
    state.campaigns.set('1', {} as never)
    state.load()
    expect(state.tokens).toEqual(seeded)
    expect(state.campaigns.size).toBe(0)
  })
})

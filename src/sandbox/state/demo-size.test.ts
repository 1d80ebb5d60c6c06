import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeCursor, timeKey } from '../paging.ts'
import { startSandbox, type TestSandbox } from '../test-support.ts'
import { DEMO_SUBSCRIBERS_INSIDE, DEMO_SUBSCRIBERS_OUTSIDE, MarketingState } from '../marketing/state.ts'
import { demoConversations, demoPageIds, demoPages, demoReachable, type DemoConversation } from './demo.ts'
import { SandboxStore } from './store.ts'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const START = Date.UTC(2026, 10, 22, 12)
const SEED = 20260427
const REAL_SIZE = 200_000

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex')

/** What a reader sees of a conversation's summary. */
function summary(c: DemoConversation) {
  return [
    c.id,
    c.customer.id,
    c.customer.name,
    c.updatedMs,
    c.lastCustomerMs,
    c.snippet,
    c.unread,
    c.canReply,
    c.blocked,
    c.historyLength,
    c.lastFromPage,
  ]
}

function withMessages(store: SandboxStore, c: DemoConversation) {
  return [...summary(c), store.messagesOf(c).map((m) => [m.id, m.createdMs, m.fromPage, m.text])]
}

describe('the large demo page at its default size', () => {
  it('is the page it always was: the same conversations, histories and subscribers', () => {
    const store = new SandboxStore(SEED, START)
    const ids = demoPageIds(SEED)
    const list = store.conversationsOf(ids.large)
    expect(list).toHaveLength(1_280)
    expect(sha256(list.map(summary))).toBe('ba9516e35622e47fb650a8317289f5d3ac0a336285a0cf3ca164b67374186b35')
    expect(sha256(list.slice(0, 50).map((c) => withMessages(store, c)))).toBe(
      '4a118d97fc5ccb239919850cb55b932a8a4e751afbad8632c58332d1464f0fca',
    )
    const labels = Object.values(ids).flatMap((p) =>
      store.labels.ofPage(p).map((l) => [l.id, l.name, l.createdMs, [...l.users]]),
    )
    expect(sha256(labels)).toBe('2d1dbdce8d82156347c7932697e6e0552af5d1ca814fa83b1467796510ca019a')
    expect(sha256(new MarketingState(SEED, () => START).tokens)).toBe(
      '7b75dc3b0418fa903edf07b0528947d932a6f2e87e440a1cba43efa9a3561c21',
    )
    const fewer = new SandboxStore(SEED, START, 320).conversationsOf(ids.large)
    expect(sha256(fewer.map(summary))).toBe(
      'e950b73b39001516d059b06725216044420c9a85d2b03a236b07306fcf2ba24d',
    )
  })

  it('tells which customers can take a message as the full conversations do', () => {
    const ids = demoPageIds(SEED)
    for (const page of demoPages(SEED)) {
      const size = page.id === ids.large ? 20_000 : undefined
      const convs = demoConversations(SEED, page, START, size)
      const reach = demoReachable(SEED, page, START, size)
      expect([...reach]).toEqual(convs.map((c) => (c.canReply && !c.blocked ? 1 : 0)))
    }
  })

  it('draws a listing’s newest messages as the end of the whole history, sends included', () => {
    for (const limit of [1, 2, 10, 60]) {
      const store = new SandboxStore(SEED, START)
      const list = [...store.conversationsOf(demoPageIds(SEED).large)]
      list.forEach((c, i) => {
        if (i % 5 === 0) store.addMessage(c, { createdMs: START + i, fromPage: true, text: 'Sent today' })
      })
      const newest = list.map((c) => store.newestMessagesOf(c, limit))
      expect(newest).toEqual(list.map((c) => store.messagesOf(c).slice(-limit)))
    }
  })
})

// Seeding and reading 200,000 conversations takes seconds on a shared two-core machine.
describe('the large demo page at real size (200,000 conversations)', { timeout: 120_000 }, () => {
  let sb: TestSandbox | undefined
  let store: SandboxStore | undefined
  const ids = demoPageIds(SEED)

  beforeAll(async () => {
    sb = await startSandbox({ seed: SEED, largePageConversations: REAL_SIZE })
    store = new SandboxStore(SEED, sb.options.startMs!, REAL_SIZE)
  })
  afterAll(async () => {
    await sb?.app.close()
    sb = undefined
    store = undefined
  })

  it('has every conversation, in the shares inside 24 h and at 1–7 days, the same for the same seed', () => {
    const start = sb!.options.startMs!
    const list = store!.conversationsOf(ids.large)
    expect(list).toHaveLength(REAL_SIZE)
    const age = (c: DemoConversation) => start - c.lastCustomerMs
    expect(list.filter((c) => age(c) < DAY)).toHaveLength(Math.round((310 * REAL_SIZE) / 1_280))
    expect(list.filter((c) => age(c) >= DAY && age(c) < 7 * DAY)).toHaveLength(
      Math.round((240 * REAL_SIZE) / 1_280),
    )
    expect(new Set(list.map((c) => c.id)).size).toBe(REAL_SIZE)
    const again = new SandboxStore(SEED, start, REAL_SIZE)
    for (const i of [0, 1, 777, 54_321, 123_456, REAL_SIZE - 1]) {
      const [a, b] = [list[i]!, again.conversationsOf(ids.large)[i]!]
      expect([a.id, a.customer.name, a.snippet]).toEqual([b.id, b.customer.name, b.snippet])
      expect(withMessages(store!, a)).toEqual(withMessages(again, b))
    }
  })

  it('finds customers, labels and subscribers among them', () => {
    const list = store!.conversationsOf(ids.large)
    const last = list[REAL_SIZE - 1]!
    expect(store!.conversationWith(ids.large, last.customer.id)).toBe(last)
    expect(store!.conversation(last.id)).toBe(last)
    for (const label of store!.labels.ofPage(ids.large)) {
      expect(label.users.size).toBeGreaterThan(REAL_SIZE * 0.03)
      for (const psid of [...label.users].slice(-20))
        expect(store!.conversationWith(ids.large, psid)).toBeDefined()
    }
    const tokens = new MarketingState(SEED, () => sb!.options.startMs!, REAL_SIZE).tokens
    expect(tokens).toHaveLength(DEMO_SUBSCRIBERS_OUTSIDE + DEMO_SUBSCRIBERS_INSIDE)
    for (const t of tokens) {
      const conv = store!.conversationWith(ids.large, t.psid)
      expect(conv && conv.canReply && !conv.blocked).toBe(true)
    }
  })

  it('pages to the last conversation through cursors, with each one’s last messages', async () => {
    const token = await sb!.pageToken(ids.large)
    const list = store!.conversationsOf(ids.large)
    const first = await sb!.client.conversations(ids.large, token, { limit: 100 })
    expect(first.data.map((c) => c.id)).toEqual(list.slice(0, 100).map((c) => c.id))
    // From the 250th-last conversation on, the next links lead to the end.
    const from = list[REAL_SIZE - 251]!
    let page = await sb!.client.conversations(ids.large, token, {
      limit: 100,
      after: encodeCursor(timeKey(from.updatedMs, from.id)),
    })
    const seen = [...page.data]
    while (page.paging?.next) {
      page = await sb!.client.conversations(ids.large, token, {
        limit: 100,
        after: page.paging.cursors!.after,
      })
      seen.push(...page.data)
    }
    expect(seen.map((c) => c.id)).toEqual(list.slice(REAL_SIZE - 250).map((c) => c.id))
    const last = seen.at(-1)!
    const messages = store!.messagesOf(list[REAL_SIZE - 1]!)
    expect(last.messages?.data.map((m) => m.id)).toEqual(
      messages
        .slice(-10)
        .reverse()
        .map((m) => m.id),
    )
    const back = await sb!.client.conversations(ids.large, token, {
      limit: 100,
      before: page.paging!.cursors!.before,
    })
    expect(back.data.map((c) => c.id)).toEqual(list.slice(REAL_SIZE - 150, REAL_SIZE - 50).map((c) => c.id))
  })

  it('takes a customer message on the last conversation, which then leads the list', async () => {
    const oldest = store!.conversationsOf(ids.large)[REAL_SIZE - 1]!
    const written = (await sb!.post('/customer-message', {
      page_id: ids.large,
      customer_id: oldest.customer.id,
      text: 'Still open?',
    })) as { conversation_id: string }
    expect(written.conversation_id).toBe(oldest.id)
    const token = await sb!.pageToken(ids.large)
    const top = await sb!.client.conversations(ids.large, token, { limit: 1 })
    expect(top.data[0]).toMatchObject({ id: oldest.id, snippet: 'Still open?' })
    const one = await sb!.client.conversations(ids.large, token, { userId: oldest.customer.id })
    expect(one.data.map((c) => c.id)).toEqual([oldest.id])
  })
})

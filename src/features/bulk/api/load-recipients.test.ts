import { describe, expect, it } from 'vitest'
import type { Conversation, Page } from '../../../core/graph/types.ts'
import { splitByWindow } from '../../../core/policy/messaging.ts'
import { loadRecipients, type BulkCustomer } from './load-recipients.ts'

const conv = (i: number, canReply = true): Conversation => ({
  id: `t_${i}`,
  updated_time: new Date(1_700_000_000_000).toISOString(),
  participants: { data: [{ id: String(i), name: `P${i}` }] },
  can_reply: canReply,
})

function fakeGraph(pages: Page<Conversation>[], failAt = -1) {
  const limits: number[] = []
  return {
    limits,
    async conversations(_p: string, _t: string, opts?: { limit?: number; after?: string }) {
      limits.push(opts?.limit ?? 0)
      const i = opts?.after ? Number(opts.after) : 0
      if (i === failAt) throw new Error('boom')
      return pages[i]!
    },
  }
}

const paged = (n: number, next: boolean): Page<Conversation> => ({
  data: Array.from({ length: 3 }, (_, k) => conv(n * 10 + k, k !== 2)),
  paging: next ? { cursors: { after: String(n + 1) }, next: 'x' } : {},
})

describe('loading the bulk audience', () => {
  it('loads every page with limit 50 and keeps only conversations it can reply to', async () => {
    const graph = fakeGraph([paged(0, true), paged(1, true), paged(2, false)])
    const got: BulkCustomer[] = []
    const res = await loadRecipients(
      graph,
      '1',
      't',
      (c) => got.push(...c),
      new AbortController().signal,
      clock(),
    )
    expect(res.complete).toBe(true)
    expect(graph.limits).toEqual([50, 50, 50])
    expect(got.map((c) => c.recipientId)).toEqual(['0', '1', '10', '11', '20', '21'])
  })

  it('stops when cancelled', async () => {
    const graph = fakeGraph([paged(0, true), paged(1, true), paged(2, false)])
    const ctrl = new AbortController()
    const res = await loadRecipients(graph, '1', 't', () => ctrl.abort(), ctrl.signal)
    expect(res.complete).toBe(false)
    expect(graph.limits).toHaveLength(1)
  })

  it('stops at an error and says so, with the cursor to go on from; going on loads the rest once', async () => {
    const graph = fakeGraph([paged(0, true), paged(1, true), paged(2, false)], 1)
    const got: BulkCustomer[] = []
    const res = await loadRecipients(
      graph,
      '1',
      't',
      (c) => got.push(...c),
      new AbortController().signal,
      clock(),
    )
    expect(res).toEqual({ complete: false, failed: true, after: '1' })
    expect(got).toHaveLength(2)
    // The network is back: going on from the cursor, with the customers already loaded.
    const healed = fakeGraph([paged(0, true), paged(1, true), paged(2, false)])
    const more = await loadRecipients(healed, '1', 't', (c) => got.push(...c), new AbortController().signal, {
      ...clock(),
      after: res.complete ? undefined : (res as { after?: string }).after,
      seen: new Set(got.map((c) => c.recipientId)),
    })
    expect(more).toEqual({ complete: true })
    expect(got.map((c) => c.recipientId)).toEqual(['0', '1', '10', '11', '20', '21'])
  })

  it('reads at most two pages a second, the Conversations API budget of a page', async () => {
    const pages = Array.from({ length: 5 }, (_, i) => paged(i, i < 4))
    const c = clock()
    const at: number[] = []
    const graph = fakeGraph(pages)
    const timed = {
      conversations: (...args: Parameters<typeof graph.conversations>) => {
        at.push(c.now())
        return graph.conversations(...args)
      },
    }
    await loadRecipients(timed, '1', 't', () => undefined, new AbortController().signal, c)
    expect(at.slice(1).map((t, i) => t - at[i]!)).toEqual([500, 500, 500, 500])
  })
})

/** The page's budget with a clock that moves only by the loading's own waits: one call every 500 ms. */
function clock() {
  let now = 1_000
  let next = 0
  return {
    now: () => now,
    pace: async () => {
      now = Math.max(now, next)
      next = now + 500
    },
  }
}

describe('the window of a bulk recipient', () => {
  const now = Date.UTC(2026, 10, 22, 12)
  const HOUR = 3_600_000
  const iso = (ms: number) => new Date(ms).toISOString()

  it('counts from the customer’s last message, not from a page reply that moved updated_time', async () => {
    const replied: Conversation = {
      id: 't_1',
      updated_time: iso(now - HOUR),
      participants: {
        data: [
          { id: 'c1', name: 'C1' },
          { id: 'page', name: 'Page' },
        ],
      },
      can_reply: true,
      messages: {
        data: [
          { id: 'm2', from: { id: 'page', name: 'Page' }, created_time: iso(now - HOUR) },
          { id: 'm1', from: { id: 'c1', name: 'C1' }, created_time: iso(now - 72 * HOUR) },
        ],
      },
    }
    const graph = fakeGraph([{ data: [replied], paging: {} }])
    const got: BulkCustomer[] = []
    await loadRecipients(graph, 'page', 't', (c) => got.push(...c), new AbortController().signal)
    expect(got[0]?.lastCustomerMessageAt).toBe(now - 72 * HOUR)
    expect(splitByWindow('current', got, (c) => c.lastCustomerMessageAt, now).inside).toEqual([])
  })

  it('leaves a customer whose messages are not known outside the window', async () => {
    const graph = fakeGraph([{ data: [conv(1)], paging: {} }])
    const got: BulkCustomer[] = []
    await loadRecipients(graph, 'page', 't', (c) => got.push(...c), new AbortController().signal)
    expect(got[0]?.lastCustomerMessageAt).toBeUndefined()
    expect(splitByWindow('current', got, (c) => c.lastCustomerMessageAt, now).outside).toHaveLength(1)
  })
})

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, useEffect } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { db } from '../../../device/db/db.ts'
import type { Conversation, GraphClient, Page } from '../../../core/graph/types.ts'
import { storeConversations } from '../model/cache.ts'
import { type ConversationListState, useConversationList } from './use-conversation-list.ts'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const pageId = 'p-list'
let root: Root | undefined
let state: ConversationListState | undefined

function conversations(total: number): Conversation[] {
  return Array.from({ length: total }, (_, i) => ({
    id: `t_${i}`,
    updated_time: new Date(Date.UTC(2026, 10, 22) - i * 60_000).toISOString(),
    participants: { data: [{ id: `u${i}`, name: `Customer ${i}` }] },
    unread_count: i < 4 ? 1 : 0,
  }))
}

/** A network with `all` conversations, paged by offset cursors; it records each call's `after` and limit. */
function fakeGraph(all: Conversation[]) {
  const calls: { after?: string; limit?: number }[] = []
  const graph = {
    async conversations(_page: string, _token: string, opts: { limit?: number; after?: string } = {}) {
      calls.push({ after: opts.after, limit: opts.limit })
      const start = opts.after ? Number(opts.after) : 0
      const data = all.slice(start, start + (opts.limit ?? 25))
      const end = start + data.length
      const page: Page<Conversation> = {
        data,
        paging: { cursors: { after: String(end) }, ...(end < all.length ? { next: `n${end}` } : {}) },
      }
      return page
    },
  } as unknown as GraphClient
  return { graph, calls }
}

const noRefresh = () => Promise.reject(new Error('no refresh'))
const report = (s: ConversationListState) => {
  state = s
}

function Probe(props: { graph: GraphClient; token?: string }) {
  const list = useConversationList({
    pageId,
    graph: props.graph,
    pageToken: props.token,
    refreshToken: noRefresh,
  })
  useEffect(() => report(list))
  return null
}

async function render(graph: GraphClient, token?: string) {
  const client = new QueryClient()
  root = createRoot(document.createElement('div'))
  await act(async () => {
    root!.render(
      <QueryClientProvider client={client}>
        <Probe graph={graph} token={token} />
      </QueryClientProvider>,
    )
  })
}

beforeEach(async () => {
  await db.delete()
  await db.open()
})
afterEach(() => {
  vi.restoreAllMocks()
  act(() => root?.unmount())
  state = undefined
})

describe('the conversation list', () => {
  it('shows the cache without a token (an offline reload) and asks the network nothing', async () => {
    await storeConversations(pageId, conversations(30))
    const net = fakeGraph(conversations(30))
    await render(net.graph, undefined)
    await expect.poll(() => state?.rows.length).toBe(30)
    expect(state?.unread).toBe(4)
    expect(net.calls).toEqual([])
  })

  it('reads the head once and walks on from its cursor to the end, and refreshes the head', async () => {
    const all = conversations(230)
    const net = fakeGraph(all)
    await render(net.graph, 'token')
    await expect.poll(() => state?.sync.phase, { timeout: 15_000 }).toBe('done')
    await expect.poll(() => state?.sync.synced).toBe(230)
    expect(state?.rows).toHaveLength(230)
    expect(state?.exhausted).toBe(true)
    // One walk over the edge: the head (25), then the rest after its cursor (100 each); no page read twice.
    expect(net.calls).toEqual([
      { after: undefined, limit: 25 },
      { after: '25', limit: 100 },
      { after: '125', limit: 100 },
      { after: '225', limit: 100 },
    ])

    await act(() => state!.refresh())
    expect(net.calls.filter((c) => c.limit === 25)).toHaveLength(2)
  })
})

describe('the conversation list while the cache changes', () => {
  it('reads again only the conversations written, not the whole page', async () => {
    const all = conversations(400)
    await storeConversations(pageId, all)
    await render(fakeGraph(all).graph, undefined)
    await expect.poll(() => state?.rows.length).toBe(400)

    // Every row the list reads from the cache, counted.
    const bulkGet = db.conversations.bulkGet.bind(db.conversations)
    let rowsRead = 0
    vi.spyOn(db.conversations, 'bulkGet').mockImplementation((keys) => {
      rowsRead += keys.length
      return bulkGet(keys)
    })
    // Eight writes of ten conversations, as the walk stores its pieces, each read before the next.
    const writes = 8
    for (let w = 0; w < writes; w++) {
      const changed = all.slice(w * 10, w * 10 + 10).map((c) => ({ ...c, snippet: `write ${w}` }))
      await storeConversations(pageId, changed)
      await expect.poll(() => state?.rows.find((r) => r.id === changed[0]!.id)?.snippet).toBe(`write ${w}`)
    }
    // A conversation moves to the top, another is deleted: the order and the rows stay the cache's.
    const newest = { ...all[300]!, updated_time: new Date(Date.UTC(2026, 10, 23)).toISOString() }
    await storeConversations(pageId, [newest])
    await db.conversations.delete(`${pageId}:${all[5]!.id}`)
    await expect.poll(() => state?.rows.length).toBe(399)
    expect(state?.rows[0]?.id).toBe(newest.id)
    expect(state?.rows.map((r) => r.id)).toEqual(
      [newest, ...all.filter((c) => c !== all[300] && c !== all[5])].map((c) => c.id),
    )
    // The written rows, not the 400 of the page each time.
    expect(rowsRead).toBeLessThanOrEqual(2 * (writes * 10 + 2))
  })
})

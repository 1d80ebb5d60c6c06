import { afterEach, beforeEach, describe, expect, it } from 'vitest'
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

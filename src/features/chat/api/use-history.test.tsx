import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { QueryClient, QueryClientProvider, focusManager, onlineManager } from '@tanstack/react-query'
import { db } from '../../../device/db/db.ts'
import type { ChatMessage, GraphClient, Page } from '../../../core/graph/types.ts'
import { type HistoryState, historyKey, useHistory } from './use-history.ts'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const pageId = 'p1'
const conversationId = 't_1'
const customer = { id: 'c1', name: 'Ana' }
const page = { id: pageId, name: 'Shop' }

/** 60 messages, newest first as the Graph answers, in pages of 25 with `after` cursors. */
function network() {
  const all: ChatMessage[] = Array.from({ length: 60 }, (_, i) => {
    const n = 59 - i
    const fromCustomer = n % 2 === 0
    return {
      id: `m${n}`,
      created_time: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
      from: fromCustomer ? customer : page,
      to: { data: [fromCustomer ? page : customer] },
      message: `Message ${n}`,
    }
  })
  const calls: (string | undefined)[] = []
  const graph = {
    async messages(_c: string, _t: string, opts?: { limit?: number; after?: string }) {
      calls.push(opts?.after)
      const start = opts?.after ? Number(opts.after) : 0
      const data = all.slice(start, start + (opts?.limit ?? 25))
      const next = start + data.length < all.length ? String(start + data.length) : undefined
      return {
        data,
        paging: next ? { cursors: { after: next }, next: `https://graph/next?after=${next}` } : {},
      } as Page<ChatMessage>
    },
  } as unknown as GraphClient
  return { all, calls, graph }
}

let root: Root | undefined
let host: HTMLElement | undefined
let client: QueryClient

async function mount(graph: GraphClient, pageToken: string | undefined) {
  const state: { current?: HistoryState } = {}
  function Probe() {
    state.current = useHistory({
      pageId,
      conversationId,
      graph,
      pageToken,
      withToken: (call) => call(pageToken ?? ''),
    })
    return null
  }
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  await act(async () => {
    root!.render(
      <QueryClientProvider client={client}>
        <Probe />
      </QueryClientProvider>,
    )
  })
  return state as { current: HistoryState }
}

const texts = (s: HistoryState) => s.messages.map((m) => m.text)

beforeEach(async () => {
  await db.messages.clear()
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
})

afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
  client.clear()
})

describe('useHistory (TanStack Query over Dexie)', () => {
  it('pages older messages in under the key [history, page, conversation] and stores them offline', async () => {
    const { graph, calls } = network()
    const h = await mount(graph, 'tok')
    await expect.poll(() => h.current.messages.length).toBe(25)
    // The rows show from the offline store as soon as they are written; the query settles just after.
    await expect.poll(() => h.current.fresh && client.isFetching() === 0).toBe(true)
    expect(texts(h.current).at(-1)).toBe('Message 59')
    expect(h.current.complete).toBe(false)
    await act(() => h.current.loadOlder())
    await act(() => h.current.loadOlder())
    await expect.poll(() => h.current.complete).toBe(true)
    expect(h.current.messages.length).toBe(60)
    expect(texts(h.current)[0]).toBe('Message 0')
    expect(calls).toEqual([undefined, '25', '50'])
    expect(client.getQueryData(historyKey(pageId, conversationId))).toMatchObject({
      pageParams: [undefined, '25', '50'],
    })
    expect(await db.messages.where('[pageId+conversationId]').equals([pageId, conversationId]).count()).toBe(
      60,
    )
  })

  it('shows the offline store without a page token, and a row written there at once', async () => {
    const { graph, all } = network()
    await mount(graph, 'tok').then((h) => expect.poll(() => h.current.messages.length).toBe(25))
    act(() => root!.unmount())
    client.clear()
    const offline = await mount(graph, undefined)
    await expect.poll(() => offline.current.messages.length).toBe(25)
    expect(offline.current.loading).toBe(false)
    await db.messages.put({
      key: `${pageId}:m999`,
      pageId,
      conversationId,
      id: 'm999',
      createdAt: Date.parse(all[0]!.created_time) + 60_000,
      fromId: customer.id,
      fromName: customer.name,
      toId: pageId,
      text: 'Live message',
      imageUrls: [],
    })
    await expect.poll(() => texts(offline.current).at(-1)).toBe('Live message')
  })

  it('reads the newest page again when the connection returns and on invalidation', async () => {
    const { graph, calls } = network()
    const h = await mount(graph, 'tok')
    await expect.poll(() => h.current.messages.length).toBe(25)
    // The rows show from the offline store as soon as they are written; the query settles just after.
    await expect.poll(() => h.current.fresh && client.isFetching() === 0).toBe(true)
    // Only the connection counts here: the test browser's own focus changes are not listened to.
    focusManager.setEventListener(() => () => {})
    const before = calls.length
    await act(async () => {
      window.dispatchEvent(new Event('offline'))
    })
    expect(onlineManager.isOnline()).toBe(false)
    await act(async () => {
      window.dispatchEvent(new Event('online'))
    })
    await expect.poll(() => calls.length).toBeGreaterThan(before)
    await expect.poll(() => client.isFetching()).toBe(0)
    const afterReconnect = calls.length
    await act(() => client.invalidateQueries({ queryKey: historyKey(pageId, conversationId) }))
    await expect.poll(() => calls.length).toBeGreaterThan(afterReconnect)
    expect(calls.every((after) => after === undefined)).toBe(true)
  })
})

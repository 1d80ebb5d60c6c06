import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { db } from '../../../device/db/db.ts'
import type { GraphClient } from '../../../core/graph/types.ts'
import { storeConversations } from '../model/cache.ts'
import { conversationKey } from '../model/conversation.ts'
import { pendingSeen } from '../model/unread.ts'
import { type MarkSeenSource, useMarkSeen } from './use-mark-seen.ts'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

const pageId = 'p-seen'
let root: Root | undefined

function Probe(props: MarkSeenSource) {
  useMarkSeen(props)
  return null
}

const offline = () => Promise.reject(Object.assign(new TypeError('Failed to fetch'), { kind: 'network' }))
const online = <T,>(call: (token: string) => Promise<T>) => call('token')

beforeEach(async () => {
  await db.delete()
  await db.open()
  await storeConversations(pageId, [
    {
      id: 't_1',
      updated_time: '2026-11-22T10:00:00+0000',
      participants: { data: [{ id: 'psid-1', name: 'Dara' }] },
      unread_count: 2,
    },
  ])
  root = createRoot(document.createElement('div'))
})
afterEach(() => {
  act(() => root?.unmount())
})

describe('marking the open conversation seen', () => {
  it('clears it here at once, and sends the mark_seen the connection held back once the token is there', async () => {
    const markSeen = vi.fn(async (_token: string, recipientId: string) => ({ recipient_id: recipientId }))
    const graph = { markSeen } as unknown as GraphClient
    const conversation = { id: 't_1', customerId: 'psid-1', unreadCount: 2 }
    await act(async () => {
      root!.render(
        <Probe pageId={pageId} graph={graph} withToken={offline} conversation={conversation} ready={false} />,
      )
    })
    await expect
      .poll(async () => (await db.conversations.get(conversationKey(pageId, 't_1')))?.unreadCount)
      .toBe(0)
    await expect.poll(() => pendingSeen(pageId)).toHaveLength(1)
    expect(markSeen).not.toHaveBeenCalled()

    // Back online: the page is entered again and its token is there.
    await act(async () => {
      root!.render(
        <Probe
          pageId={pageId}
          graph={graph}
          withToken={online}
          conversation={{ ...conversation, unreadCount: 0 }}
          ready
        />,
      )
    })
    await expect.poll(() => markSeen.mock.calls.length).toBe(1)
    expect(markSeen).toHaveBeenCalledWith('token', 'psid-1')
    await expect.poll(() => pendingSeen(pageId)).toEqual([])
  })
})

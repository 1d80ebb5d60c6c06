import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { db, stateKey } from '../../../device/db/db.ts'
import type { Conversation } from '../../../core/graph/types.ts'
import { type LocalUnread, pageUnread } from '../../../shared/live/unread.ts'
import { storeConversations } from './cache.ts'
import { conversationKey } from './conversation.ts'
import {
  bumpUnread,
  markConversationSeen,
  markSeenDelivered,
  pageUnreadCount,
  pagesUnreadNow,
  pendingSeen,
  subscribePagesUnread,
  watchPagesUnread,
} from './unread.ts'

const pageId = 'p1'
/** The live reads answer within a moment; a machine busy with other suites may take longer. */
const settles = { timeout: 10_000 }
const conv = (id: string, unread: number, at = '2026-11-22T10:00:00+0000'): Conversation => ({
  id,
  updated_time: at,
  participants: { data: [{ id: `u_${id}`, name: id }] },
  unread_count: unread,
})

/** Live reads a test opened: closed after it, whether it passed or not, so none reads on into the next. */
const open: { unsubscribe(): void }[] = []
function track<T extends { unsubscribe(): void }>(subscription: T): T {
  open.push(subscription)
  return subscription
}
afterEach(() => {
  for (const s of open.splice(0)) s.unsubscribe()
})

beforeEach(async () => {
  await db.delete()
  await db.open()
  await storeConversations(pageId, [conv('a', 2), conv('b', 3), conv('c', 0)])
})

describe('unread counts in the conversation cache', () => {
  it('sums a page’s conversations, and a live message bumps one', async () => {
    expect(await pageUnreadCount(pageId)).toBe(5)
    expect(await bumpUnread(pageId, 'c')).toBe(true)
    expect(await bumpUnread(pageId, 'missing')).toBe(false)
    expect((await db.conversations.get(conversationKey(pageId, 'c')))?.unreadCount).toBe(1)
    expect(await pageUnreadCount(pageId)).toBe(6)
  })

  it('opening clears it, and a network read that has not caught up does not bring it back', async () => {
    await markConversationSeen(pageId, 'b', Date.parse('2026-11-22T10:05:00Z'))
    expect(await pageUnreadCount(pageId)).toBe(2)
    // The list is read again before the network has taken the mark_seen in: same message, still "3 unread".
    await storeConversations(pageId, [conv('b', 3)])
    expect((await db.conversations.get(conversationKey(pageId, 'b')))?.unreadCount).toBe(0)
    // A newer customer message is unread again.
    await storeConversations(pageId, [conv('b', 1, '2026-11-22T11:00:00+0000')])
    expect((await db.conversations.get(conversationKey(pageId, 'b')))?.unreadCount).toBe(1)
  })

  it('keeps a mark_seen the network has not taken pending, across network reads, until it is delivered', async () => {
    await markConversationSeen(pageId, 'a')
    expect(await pendingSeen(pageId)).toEqual([{ id: 'a', customerId: 'u_a' }])
    await storeConversations(pageId, [conv('a', 2)])
    expect(await pendingSeen(pageId)).toHaveLength(1)
    await markSeenDelivered(pageId, 'a')
    expect(await pendingSeen(pageId)).toEqual([])
  })

  it("gives each page one count for home and its inbox: the cache's once it holds the whole page", async () => {
    const seen: Record<string, LocalUnread>[] = []
    const subscription = track(watchPagesUnread().subscribe((v) => seen.push(v)))
    // Part of the page cached: the network's count of the accounts list, or the cache's when it knows more.
    await expect.poll(() => seen.at(-1), settles).toEqual({ [pageId]: { cached: 5, whole: false } })
    expect(pageUnread(seen.at(-1)![pageId], 33)).toBe(33)
    expect(pageUnread(seen.at(-1)![pageId], 2)).toBe(5)
    expect(pageUnread(undefined, 33)).toBe(33)
    await db.inboxSync.put({ pageId, synced: 3, done: true, startedAt: 1, finishedAt: 2, whole: true })
    await expect.poll(() => seen.at(-1), settles).toEqual({ [pageId]: { cached: 5, whole: true } })
    expect(pageUnread(seen.at(-1)![pageId], 33)).toBe(5)
    await markConversationSeen(pageId, 'a')
    await expect.poll(() => seen.at(-1), settles).toEqual({ [pageId]: { cached: 3, whole: true } })
    // A later sync reading the list again from its head still has the whole page in the cache.
    await db.inboxSync.put({ pageId, synced: 0, done: false, startedAt: 3, whole: true })
    await expect.poll(() => seen.at(-1)?.[pageId]?.whole, settles).toBe(true)
    expect(pageUnread(seen.at(-1)![pageId], 33)).toBe(3)
    subscription.unsubscribe()
  })

  it('is one read the screens share: the next screen starts from the count the last one showed', async () => {
    const home = vi.fn()
    const leaveHome = subscribePagesUnread(home)
    await vi.waitFor(() => expect(pagesUnreadNow()?.[pageId]).toEqual({ cached: 5, whole: false }))
    expect(home).toHaveBeenCalled()
    leaveHome()
    // The inbox opens right after: it shows the home card's count before any read of its own.
    const inbox = vi.fn()
    const leaveInbox = subscribePagesUnread(inbox)
    expect(pagesUnreadNow()?.[pageId]).toEqual({ cached: 5, whole: false })
    // A change reaches whoever listens.
    await bumpUnread(pageId, 'c')
    await vi.waitFor(() => expect(pagesUnreadNow()?.[pageId]?.cached).toBe(6))
    expect(inbox).toHaveBeenCalled()
    // Nobody listens for a while: the read stops and forgets.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      leaveInbox()
      vi.advanceTimersByTime(5_000)
    } finally {
      vi.useRealTimers()
    }
    expect(pagesUnreadNow()).toBeUndefined()
  })

  it('reads again only the conversations written, not every cached one', async () => {
    await storeConversations(
      'p2',
      Array.from({ length: 300 }, (_, i) => conv(`m${i}`, i % 2)),
    )
    const seen: Record<string, LocalUnread>[] = []
    const subscription = track(watchPagesUnread().subscribe((v) => seen.push(v)))
    await expect.poll(() => seen.at(-1)?.p2?.cached, settles).toBe(150)
    const bulkGet = db.conversations.bulkGet.bind(db.conversations)
    let rowsRead = 0
    const spy = vi.spyOn(db.conversations, 'bulkGet').mockImplementation((keys) => {
      rowsRead += keys.length
      return bulkGet(keys)
    })
    for (let i = 0; i < 5; i++) {
      await bumpUnread('p2', `m${i * 2}`)
      await expect.poll(() => seen.at(-1)?.p2?.cached, settles).toBe(151 + i)
    }
    await db.conversations.delete(conversationKey(pageId, 'b'))
    await expect.poll(() => seen.at(-1)?.[pageId]?.cached, settles).toBe(2)
    expect(seen.at(-1)?.p2?.cached).toBe(155)
    expect(rowsRead).toBeLessThanOrEqual(12)
    spy.mockRestore()
    subscription.unsubscribe()
  })

  it("keeps counting a customer's unread words after a broadcast zeroed the network's count", async () => {
    const seen: Record<string, LocalUnread>[] = []
    const subscription = track(watchPagesUnread().subscribe((v) => seen.push(v)))
    await expect.poll(() => seen.at(-1)?.[pageId]?.cached, settles).toBe(5)
    // The page broadcast to a and b: the network now shows the promotion and nothing unread.
    const after = '2026-11-22T12:00:00+0000'
    await storeConversations(pageId, [conv('a', 0, after), conv('b', 0, after)])
    const state = (customerId: string, unread: number) => ({
      key: stateKey(pageId, customerId),
      pageId,
      customerId,
      customerAt: '2026-11-22T10:00:00.000Z',
      customerText: 'Do you have it in size M?',
      unread,
      answeredAt: null,
      doneAt: null,
      doneBy: null,
      broadcastAt: '2026-11-22T12:00:00.000Z',
      broadcastText: 'Sunday promotion',
      needsReply: true,
    })
    await db.conversationStates.bulkPut([state('u_a', 2), state('u_b', 3)])
    await expect.poll(() => seen.at(-1)?.[pageId]?.cached, settles).toBe(5)
    expect(await pageUnreadCount(pageId)).toBe(5)
    // Opening one here reads its words: only the other one's stay counted.
    await markConversationSeen(pageId, 'a', Date.parse('2026-11-22T12:05:00Z'))
    await expect.poll(() => seen.at(-1)?.[pageId]?.cached, settles).toBe(3)
    expect(await pageUnreadCount(pageId)).toBe(3)
    subscription.unsubscribe()
  })
})

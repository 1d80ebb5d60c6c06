/**
 * The inbox's list reads and the live stream race: a list may be read from the network before a customer's
 * message reached it and stored after the message's event, or read after and stored before. Either way each
 * message is counted unread once, in a real IndexedDB.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { storeConversations } from '../../features/inbox/model/cache.ts'
import { markConversationSeen } from '../../features/inbox/model/unread.ts'
import { dispatchLiveEvent } from '../../features/live/model/dispatch.ts'
import { parseLiveEvent, type LiveEvent } from '../../features/live/model/events.ts'
import { db } from '../../device/db/db.ts'
import type { Conversation } from '../../core/graph/types.ts'

const PAGE = 'p1'
const KEY = `${PAGE}:c1`
/** Whole seconds, as the network writes its times; live events carry milliseconds. */
const T0 = Date.parse('2026-11-23T10:00:00.000Z')
const graphTime = (ms: number) =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', '+0000')

interface Msg {
  id: string
  at: number
  fromPage?: boolean
}

/** The network's list row of the conversation after `messages` (oldest first), `unread` of them unread. */
function listed(messages: Msg[], unread: number, snippet: string): Conversation {
  const newest = messages.at(-1)!
  return {
    id: 'c1',
    updated_time: graphTime(newest.at),
    unread_count: unread,
    snippet,
    participants: {
      data: [
        { id: 'u1', name: 'Ana' },
        { id: PAGE, name: 'Page' },
      ],
    },
    messages: {
      data: [...messages].reverse().map((m) => ({
        id: m.id,
        created_time: graphTime(m.at),
        from: { id: m.fromPage ? PAGE : 'u1', name: m.fromPage ? 'Page' : 'Ana' },
      })),
    },
  }
}

function live(m: Msg, text: string): LiveEvent {
  const data = {
    pageId: PAGE,
    customerId: 'u1',
    mid: m.id,
    text,
    attachments: [],
    createdTime: new Date(m.at).toISOString(),
    fromPage: m.fromPage ?? false,
  }
  return parseLiveEvent('message', JSON.stringify(data), m.id)!
}

const deps = { inView: () => false }
const row = async () => (await db.conversations.get(KEY))!

const old: Msg = { id: 'm_old', at: T0 - 3_600_000 }
const earlier: Msg = { id: 'm_earlier', at: T0 + 200 }
const later: Msg = { id: 'm_later', at: T0 + 205 }

beforeEach(async () => {
  await Promise.all([db.conversations.clear(), db.messages.clear()])
  // The first read: one unread message.
  await storeConversations(PAGE, [listed([old], 1, 'Old')])
})

describe('a list read and live messages racing', () => {
  it('a list read after both messages, stored before their events: each counted once', async () => {
    await storeConversations(PAGE, [listed([old, earlier, later], 3, 'Later')])
    await dispatchLiveEvent(live(later, 'Later'), deps)
    await dispatchLiveEvent(live(earlier, 'Earlier'), deps)
    expect(await row()).toMatchObject({ unreadCount: 3, snippet: 'Later' })
  })

  it("a late event of a message the list has keeps the list's newer snippet, though their second is the same", async () => {
    await dispatchLiveEvent(live(later, 'Later'), deps)
    await storeConversations(PAGE, [listed([old, earlier, later], 3, 'Later')])
    await dispatchLiveEvent(live(earlier, 'Earlier'), deps)
    expect(await row()).toMatchObject({ unreadCount: 3, snippet: 'Later' })
  })

  it('a list read after one message, stored after its event and before the other: each counted once', async () => {
    await dispatchLiveEvent(live(earlier, 'Earlier'), deps)
    await storeConversations(PAGE, [listed([old, earlier], 2, 'Earlier')])
    await dispatchLiveEvent(live(later, 'Later'), deps)
    expect(await row()).toMatchObject({ unreadCount: 3, snippet: 'Later', updatedAt: later.at })
  })

  it('a list read before the messages, stored after their events: the live count and snippet stay', async () => {
    const stale = listed([old], 1, 'Old')
    await dispatchLiveEvent(live(later, 'Later'), deps)
    await dispatchLiveEvent(live(earlier, 'Earlier'), deps)
    await storeConversations(PAGE, [stale])
    expect(await row()).toMatchObject({ unreadCount: 3, snippet: 'Later', updatedAt: later.at })
    // The next read has them: the network's count alone, nothing carried twice.
    await storeConversations(PAGE, [listed([old, earlier, later], 3, 'Later')])
    const after = await row()
    expect(after).toMatchObject({ unreadCount: 3, snippet: 'Later' })
    expect(after.liveUnread).toBeUndefined()
  })

  it('a late event of a message older than what the list nested is in its count already', async () => {
    const many: Msg[] = Array.from({ length: 10 }, (_, i) => ({ id: `m_${i}`, at: T0 + (i + 1) * 2_000 }))
    // The list nests the newest ten; `earlier` is older than all of them and not among them.
    await storeConversations(PAGE, [listed(many, 11, 'm_9')])
    await dispatchLiveEvent(live(earlier, 'Earlier'), deps)
    expect((await row()).unreadCount).toBe(11)
  })

  it('opening the conversation drops what was counted live, and a stale list does not bring it back', async () => {
    const stale = listed([old], 1, 'Old')
    await dispatchLiveEvent(live(earlier, 'Earlier'), deps)
    await markConversationSeen(PAGE, 'c1', later.at + 1_000)
    await storeConversations(PAGE, [stale])
    expect((await row()).unreadCount).toBe(0)
  })

  it("the page's answer newer than the list leaves nothing unread, nothing carried", async () => {
    await dispatchLiveEvent(live(earlier, 'Earlier'), deps)
    await dispatchLiveEvent(live({ id: 'm_reply', at: T0 + 900, fromPage: true }, 'Thanks'), deps)
    const after = await row()
    expect(after.unreadCount).toBe(0)
    expect(after.liveUnread).toBeUndefined()
  })
})

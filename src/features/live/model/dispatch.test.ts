import { QueryClient, QueryObserver } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { jobRecord } from '../../../device/testing/bulk-fakes.ts'
import { type CachedConversation, db } from '../../../device/db/db.ts'
import { onLiveChange, registerOpenChat, type LiveChange } from '../../../shared/live/changes.ts'
import { labelsVersion } from '../../../shared/live/labels.ts'
import { dispatchLiveEvent, type LiveDeps } from './dispatch.ts'
import { parseLiveEvent, type LiveEvent } from './events.ts'

const PAGE = 'p1'
const T0 = Date.parse('2026-11-23T10:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()

function conversation(
  id: string,
  customerId: string,
  updatedAt: number,
  over: Partial<CachedConversation> = {},
) {
  return {
    key: `${PAGE}:${id}`,
    pageId: PAGE,
    id,
    updatedAt,
    customerId,
    customerName: `Customer ${customerId}`,
    snippet: 'old',
    unreadCount: 0,
    canReply: true,
    ...over,
  }
}

function event(type: string, data: unknown, id = '1'): LiveEvent {
  const parsed = parseLiveEvent(type, JSON.stringify(data), id)
  if (!parsed) throw new Error(`bad ${type}`)
  return parsed
}

const message = (mid: string, customerId: string, at: number, over: Record<string, unknown> = {}) =>
  event('message', {
    pageId: PAGE,
    customerId,
    mid,
    text: `text ${mid}`,
    attachments: [],
    createdTime: iso(at),
    fromPage: false,
    ...over,
  })

const changes: LiveChange[] = []
let off: () => void
const deps: LiveDeps = { inView: () => false }

beforeEach(async () => {
  await Promise.all([
    db.conversations.clear(),
    db.messages.clear(),
    db.receipts.clear(),
    db.bulkReceipts.clear(),
    db.customerLabels.clear(),
    db.bulkJobs.clear(),
  ])
  await db.conversations.bulkPut([
    conversation('c1', 'u1', T0 - 60_000),
    conversation('c2', 'u2', T0 - 30_000),
  ])
  changes.length = 0
  off = onLiveChange((c) => changes.push(c))
})
afterEach(() => off())

const top = async () =>
  (await db.conversations.where('[pageId+updatedAt]').between([PAGE, 0], [PAGE, Infinity]).reverse().first())!

describe('a live message event', () => {
  it('moves its conversation to the top with the snippet, the time and one more unread, and caches the message', async () => {
    await dispatchLiveEvent(message('m_1', 'u1', T0), deps)
    const row = await top()
    expect(row).toMatchObject({
      id: 'c1',
      snippet: 'text m_1',
      updatedAt: T0,
      unreadCount: 1,
      lastCustomerMessageAt: T0,
    })
    expect(await db.messages.get(`${PAGE}:m_1`)).toMatchObject({
      conversationId: 'c1',
      fromId: 'u1',
      toId: PAGE,
      text: 'text m_1',
    })
    expect(changes.map((c) => c.type)).toEqual(['message', 'conversation'])
  })

  it('counts a duplicated or replayed message once', async () => {
    await dispatchLiveEvent(message('m_1', 'u1', T0), deps)
    await dispatchLiveEvent(message('m_1', 'u1', T0), deps)
    expect((await db.conversations.get(`${PAGE}:c1`))!.unreadCount).toBe(1)
    expect(await db.messages.count()).toBe(1)
  })

  it('leaves the snippet of a newer message in place when an older one arrives late, yet counts both', async () => {
    await dispatchLiveEvent(message('m_2', 'u1', T0 + 1_000), deps)
    await dispatchLiveEvent(message('m_1', 'u1', T0), deps)
    expect(await db.conversations.get(`${PAGE}:c1`)).toMatchObject({
      snippet: 'text m_2',
      updatedAt: T0 + 1_000,
      unreadCount: 2,
    })
  })

  it('is read at once in a chat open on screen, and the inbox is asked to mark it seen', async () => {
    const markSeen = vi.fn()
    const unregister = registerOpenChat({ pageId: PAGE, conversationId: 'c1' })
    try {
      await dispatchLiveEvent(message('m_1', 'u1', T0), { markSeen })
    } finally {
      unregister()
    }
    expect((await db.conversations.get(`${PAGE}:c1`))!.unreadCount).toBe(0)
    expect(markSeen).toHaveBeenCalledWith(PAGE, 'c1')
  })

  it("takes the page's own message (an echo) as the page's answer: nothing unread", async () => {
    await db.conversations.update(`${PAGE}:c2`, { unreadCount: 3 })
    await dispatchLiveEvent(message('m_9', 'u2', T0, { fromPage: true, text: 'Thanks!' }), deps)
    expect(await db.conversations.get(`${PAGE}:c2`)).toMatchObject({ unreadCount: 0, snippet: 'Thanks!' })
    expect(await db.messages.get(`${PAGE}:m_9`)).toMatchObject({ fromId: PAGE, toId: 'u2' })
  })

  it('for a conversation this device has not cached, asks for the page list again and invalidates it', async () => {
    const queryClient = new QueryClient()
    const spy = vi.spyOn(queryClient, 'invalidateQueries')
    await dispatchLiveEvent(message('m_5', 'u9', T0), {
      ...deps,
      queryClient,
      keys: { conversations: (p) => ['conversations', p] },
    })
    expect(changes).toEqual([{ type: 'refetch', pageId: PAGE }])
    expect(spy).toHaveBeenCalledWith({ queryKey: ['conversations', PAGE] })
    expect(await db.messages.count()).toBe(0)
  })

  it("reads the list on screen again while the network's list lags behind its webhook, until the conversation is there", async () => {
    const queryClient = new QueryClient()
    const queryKey = ['conversations', PAGE]
    let reads = 0
    // The list on screen: the network knows the new customer's conversation from its third read on.
    const observer = new QueryObserver(queryClient, {
      queryKey,
      queryFn: async () => {
        reads++
        if (reads === 3) await db.conversations.put(conversation('c9', 'u9', T0))
        return reads
      },
    })
    const stop = observer.subscribe(() => undefined)
    await expect.poll(() => reads, { timeout: 10_000 }).toBe(1)
    try {
      await dispatchLiveEvent(message('m_6', 'u9', T0), {
        ...deps,
        queryClient,
        keys: { conversations: () => queryKey },
        unknownRetryMs: [20, 20, 20, 20],
      })
      await expect
        .poll(async () => (await db.conversations.get(`${PAGE}:c9`))?.customerId, { timeout: 10_000 })
        .toBe('u9')
      await new Promise((resolve) => setTimeout(resolve, 150))
      // Read again on the event, then twice more; never after the conversation was there.
      expect(reads).toBe(3)
    } finally {
      stop()
    }
  })

  it('does not read again a list nobody shows: it is read when it shows', async () => {
    const queryClient = new QueryClient()
    const spy = vi.spyOn(queryClient, 'invalidateQueries')
    await dispatchLiveEvent(message('m_7', 'u9', T0), {
      ...deps,
      queryClient,
      keys: { conversations: (p) => ['conversations', p] },
      unknownRetryMs: [10, 10],
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(spy).toHaveBeenCalledTimes(1)
  })
})

describe('receipt events', () => {
  it('keep per customer the furthest delivery and read watermarks, whatever the order they come in', async () => {
    const marks = { pageId: PAGE, customerId: 'u1' }
    await dispatchLiveEvent(event('read', { ...marks, watermark: iso(T0) }), deps)
    await dispatchLiveEvent(event('delivery', { ...marks, watermark: iso(T0 + 5_000) }), deps)
    await dispatchLiveEvent(event('delivery', { ...marks, watermark: iso(T0 - 5_000) }), deps)
    expect(await db.receipts.get(`${PAGE}:u1`)).toMatchObject({ delivered: T0 + 5_000, read: T0 })
  })

  it("keep a bulk message's delivered and read counts, never lowered by a late event", async () => {
    await dispatchLiveEvent(
      event('bulk_receipts', { pageId: PAGE, messageId: '42', delivered: 5, read: 2 }),
      deps,
    )
    await dispatchLiveEvent(
      event('bulk_receipts', { pageId: PAGE, messageId: '42', delivered: 3, read: 1 }),
      deps,
    )
    expect(await db.bulkReceipts.get('42')).toEqual({ id: '42', pageId: PAGE, delivered: 5, read: 2 })
  })
})

describe('a page subscription event', () => {
  it('tells the owner only when the network refused to subscribe the page', async () => {
    const onSubscriptionFailed = vi.fn()
    await dispatchLiveEvent(event('page_subscription', { pageId: PAGE, ok: true }), { onSubscriptionFailed })
    expect(onSubscriptionFailed).not.toHaveBeenCalled()
    await dispatchLiveEvent(event('page_subscription', { pageId: PAGE, ok: false, error: 'code 200' }), {
      onSubscriptionFailed,
    })
    expect(onSubscriptionFailed).toHaveBeenCalledWith(PAGE, 'code 200')
  })
})

describe('a page whose access was lost', () => {
  it('tells the owner which page, from the event of the stream', async () => {
    const onPageAccessLost = vi.fn()
    await dispatchLiveEvent(event('page_access_lost', { pageId: PAGE, reason: 'role_lost' }), {
      onPageAccessLost,
    })
    expect(onPageAccessLost).toHaveBeenCalledWith(PAGE)
  })
})

describe("a page's marketing subscribers changed", () => {
  it("invalidates that page's marketing state, so its subscriber counts are read again", async () => {
    const queryClient = new QueryClient()
    const spy = vi.spyOn(queryClient, 'invalidateQueries')
    const keys = { marketing: (pageId: string) => ['marketing', pageId], all: [['inbox']] }
    await dispatchLiveEvent(event('marketing_subscribers', { pageId: PAGE, active: 41, stopped: 2 }), {
      queryClient,
      keys,
    })
    expect(spy.mock.calls.map((c) => c[0])).toEqual([{ queryKey: ['marketing', PAGE] }])
  })
})

describe("a page template's review ended", () => {
  it("invalidates that page's templates, so the approval (or the rejection's reason) shows", async () => {
    const queryClient = new QueryClient()
    const spy = vi.spyOn(queryClient, 'invalidateQueries')
    const keys = { templates: (pageId: string) => ['templates', pageId], all: [['inbox']] }
    const data = {
      pageId: PAGE,
      templateId: '9',
      name: 'x',
      language: 'en_US',
      status: 'APPROVED',
      reason: null,
    }
    await dispatchLiveEvent(event('template_status', data), { queryClient, keys })
    expect(spy.mock.calls.map((c) => c[0])).toEqual([{ queryKey: ['templates', PAGE] }])
  })
})

describe('labels another person of the page changed', () => {
  it("mark the page's labels and those customers' labels to be read again, no other customer's", async () => {
    const now = Date.now()
    for (const id of ['11', '12'])
      await db.customerLabels.put({
        key: `${PAGE}:${id}`,
        pageId: PAGE,
        customerId: id,
        labelIds: ['7'],
        at: now,
      })
    const before = [labelsVersion(PAGE), labelsVersion(PAGE, '11'), labelsVersion(PAGE, '12')]
    await dispatchLiveEvent(event('labels', { pageId: PAGE, customerIds: ['11'] }), {})
    expect([labelsVersion(PAGE), labelsVersion(PAGE, '11'), labelsVersion(PAGE, '12')]).toEqual([
      before[0]! + 1,
      before[1]! + 1,
      before[2],
    ])
    // The list's label filter reads the changed customer again: it is no longer counted as read lately.
    expect((await db.customerLabels.get(`${PAGE}:11`))?.at).toBe(0)
    expect((await db.customerLabels.get(`${PAGE}:12`))?.at).toBe(now)
  })
})

describe('a refetch event (a gap in the stream)', () => {
  it('invalidates the lists, histories and unread counts of every page, and tells the open screens', async () => {
    const queryClient = new QueryClient()
    const spy = vi.spyOn(queryClient, 'invalidateQueries')
    const keys = { all: [['inbox'], ['history']] }
    await dispatchLiveEvent(event('refetch', { reason: 'gap' }), { queryClient, keys })
    expect(spy.mock.calls.map((c) => c[0])).toEqual([{ queryKey: ['inbox'] }, { queryKey: ['history'] }])
    expect(changes).toEqual([{ type: 'refetch' }])
  })
})

describe("a server send's progress on a device that does not hold the job", () => {
  const progress = (over: Record<string, unknown> = {}) =>
    event('bulk_progress', {
      pageId: PAGE,
      messageId: '41',
      sent: 28,
      rejected: 1,
      skipped: 0,
      total: 39,
      state: 'running',
      sender: 'server',
      ...over,
    })
  const stored = {
    id: '41',
    page_id: PAGE,
    page_name: 'Kanha',
    message: 'Hello',
    image_url: null,
    tag: null,
    label: '[]',
    total_messages: 39,
    branded_messages_amount: 0,
    ok_count: 7,
    ng_count: 0,
    skipped_count: 0,
    delivered_count: 0,
    read_count: 0,
    state: 'open' as const,
    stop_reason: null,
    created_at: iso(T0),
    sender: 'server' as const,
    server_state: 'running',
    scheduled_at: null,
    time_zone: null,
    content_kind: 'text' as const,
    optin_title: null,
    kind: 'standard' as const,
    marketing: null,
  }

  it("moves the job's card in the server's list and has the allowance read again", async () => {
    const queryClient = new QueryClient()
    const key = ['bulk', 'server-jobs']
    queryClient.setQueryData(key, [stored])
    const onAllowanceSpent = vi.fn()
    await dispatchLiveEvent(progress(), { queryClient, keys: { serverJobs: key }, onAllowanceSpent })
    expect(queryClient.getQueryData<(typeof stored)[]>(key)?.[0]).toMatchObject({ ok_count: 28, ng_count: 1 })
    expect(onAllowanceSpent).toHaveBeenCalledTimes(1)
    await dispatchLiveEvent(progress({ sent: 20, state: 'finished' }), {
      queryClient,
      keys: { serverJobs: key },
    })
    // Counts never go back; the end is the server's.
    expect(queryClient.getQueryData<(typeof stored)[]>(key)?.[0]).toMatchObject({
      ok_count: 28,
      state: 'finished',
    })
  })

  it('moves the card of a job another device sends, and ignores the events of a job this device sends', async () => {
    const queryClient = new QueryClient()
    const key = ['bulk', 'server-jobs']
    const elsewhere = { ...stored, sender: 'device' as const, server_state: null }
    queryClient.setQueryData(key, [elsewhere, { ...elsewhere, id: '42' }])
    const onAllowanceSpent = vi.fn()
    const deps = { queryClient, keys: { serverJobs: key }, onAllowanceSpent }
    await dispatchLiveEvent(progress({ sender: 'device' }), deps)
    expect(queryClient.getQueryData<(typeof stored)[]>(key)?.[0]).toMatchObject({
      ok_count: 28,
      sender: 'device',
      state: 'open',
    })
    expect(onAllowanceSpent).toHaveBeenCalledTimes(1)
    // Job 42 is this device's own send: its database is the card's truth, the event changes nothing.
    await db.bulkJobs.put(jobRecord({ id: '42', state: 'running', total: 39, sent: 3 }))
    const spy = vi.spyOn(queryClient, 'invalidateQueries')
    await dispatchLiveEvent(progress({ messageId: '42', sender: 'device', sent: 30 }), deps)
    expect(queryClient.getQueryData<(typeof stored)[]>(key)?.[1]).toMatchObject({ ok_count: 7 })
    expect((await db.bulkJobs.get('42'))?.sent).toBe(3)
    expect(onAllowanceSpent).toHaveBeenCalledTimes(1)
    expect(spy).not.toHaveBeenCalled()
  })

  it("ends a job this device handed over only by an event of the hand-over's lease or a later one", async () => {
    // The job stopped under lease 4 and this device resumed it, handed over again under lease 5: the stop's
    // event, replayed late, is not the resumed job's end.
    await db.bulkJobs.put(jobRecord({ id: '41', state: 'on_server', total: 39, sent: 3, serverLease: 5 }))
    const stop = { state: 'stopped', stopReason: 'marketing:inactive_campaign' }
    await dispatchLiveEvent(progress({ ...stop, sent: 3, lease: 4 }), {})
    expect(await db.bulkJobs.get('41')).toMatchObject({ state: 'on_server', sent: 3 })
    await dispatchLiveEvent(progress({ sent: 9, lease: 6 }), {})
    expect(await db.bulkJobs.get('41')).toMatchObject({ state: 'on_server', sent: 9 })
    await dispatchLiveEvent(progress({ sent: 39, state: 'finished', lease: 6 }), {})
    expect(await db.bulkJobs.get('41')).toMatchObject({ state: 'finished', sent: 39 })
  })

  it('reads the list again when it does not have the job yet', async () => {
    const queryClient = new QueryClient()
    const key = ['bulk', 'server-jobs']
    queryClient.setQueryData(key, [])
    const spy = vi.spyOn(queryClient, 'invalidateQueries')
    await dispatchLiveEvent(progress(), { queryClient, keys: { serverJobs: key } })
    expect(spy).toHaveBeenCalledWith({ queryKey: key })
  })
})

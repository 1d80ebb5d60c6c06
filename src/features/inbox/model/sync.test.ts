import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '../../../device/db/db.ts'
import type { Conversation, Page } from '../../../core/graph/types.ts'
import { filterConversations } from './filter.ts'
import { readAllConversations } from './cache.ts'
import { RESYNC_AFTER_MS, readSyncState, runConversationSync } from './sync.ts'

const pageId = 'p1'

/** A network list of `total` conversations, newest first, paged with `after` cursors like the Graph API. */
function network(total: number, pageSize: number) {
  const all: Conversation[] = Array.from({ length: total }, (_, i) => ({
    id: `t_${i}`,
    updated_time: new Date(Date.UTC(2026, 10, 22) - i * 60_000).toISOString(),
    participants: { data: [{ id: `u${i}`, name: i === total - 3 ? 'Paolo Wijaya' : `Customer ${i}` }] },
    snippet: 'Hello',
    unread_count: i % 2,
  }))
  const calls: (string | undefined)[] = []
  const fetchPage = async (after: string | undefined): Promise<Page<Conversation>> => {
    calls.push(after)
    const start = after ? Number(after) : 0
    const data = all.slice(start, start + pageSize)
    const end = start + data.length
    return {
      data,
      paging: {
        cursors: { before: String(start), after: String(end) },
        ...(end < all.length ? { next: `https://graph/next?after=${end}` } : {}),
      },
    }
  }
  const reported: string[][] = []
  const report = async (page: readonly Conversation[]) => {
    reported.push(page.map((c) => c.id))
  }
  return { all, calls, fetchPage, report, reported }
}

const noPace = () => Promise.resolve()

beforeEach(async () => {
  await db.delete()
  await db.open()
})

describe('the background sync of a page’s conversations', () => {
  it('stores every conversation of the page, so the filter finds one never scrolled to', async () => {
    const net = network(1280, 100)
    const controller = new AbortController()
    const state = await runConversationSync(pageId, { ...net, pace: noPace, signal: controller.signal })
    expect(state).toMatchObject({ done: true, synced: 1280 })
    expect(net.calls).toHaveLength(13)
    const rows = await readAllConversations(pageId)
    expect(rows).toHaveLength(1280)
    expect(filterConversations(rows, 'paolo wijaya').map((r) => r.id)).toEqual(['t_1277'])
  })

  it('goes on after a reload from the cursor it stored, and a finished page is not read again', async () => {
    const net = network(350, 100)
    const controller = new AbortController()
    let pages = 0
    await runConversationSync(pageId, {
      fetchPage: net.fetchPage,
      report: net.report,
      // Two pages, then the inbox closes (a page switch, a reload).
      pace: async () => {
        if (++pages > 2) controller.abort()
      },
      signal: controller.signal,
    })
    expect(await readSyncState(pageId)).toMatchObject({ after: '200', synced: 200, done: false })

    const resumed = await runConversationSync(pageId, {
      ...net,
      pace: noPace,
      signal: new AbortController().signal,
    })
    expect(resumed).toMatchObject({ done: true, synced: 350 })
    expect(net.calls).toEqual([undefined, '100', '200', '300'])
    await runConversationSync(pageId, { ...net, pace: noPace, signal: new AbortController().signal })
    expect(net.calls).toHaveLength(4)
  })

  it('knows the whole page is on the device while a later sync reads it again from the head', async () => {
    const net = network(250, 100)
    let now = 1_000
    const first = await runConversationSync(pageId, {
      ...net,
      pace: noPace,
      signal: new AbortController().signal,
      now: () => now,
    })
    expect(first).toMatchObject({ done: true, whole: true })
    expect(await readSyncState(pageId)).toMatchObject({ done: true, whole: true })
    // Hours later the list is read again from its head; stopped after one page, it is not done, but whole.
    now += RESYNC_AFTER_MS + 1
    const controller = new AbortController()
    let pages = 0
    await runConversationSync(pageId, {
      ...net,
      pace: async () => {
        if (++pages > 1) controller.abort()
      },
      signal: controller.signal,
      now: () => now,
    })
    expect(await readSyncState(pageId)).toMatchObject({ done: false, whole: true, synced: 100 })
  })

  it('writes nothing once the device’s data changed hands (signed out meanwhile)', async () => {
    await db.meta.put({ key: 'owner', value: '42' })
    const net = network(300, 100)
    const state = await runConversationSync(pageId, {
      report: net.report,
      fetchPage: async (after) => {
        const page = await net.fetchPage(after)
        if (after === '100') await db.meta.clear()
        return page
      },
      pace: noPace,
      signal: new AbortController().signal,
    })
    expect(state).toMatchObject({ synced: 100, done: false })
    expect(await db.conversations.count()).toBe(100)
  })

  it('gives the server each page it reads before storing it; a page the server did not take is read again', async () => {
    const net = network(300, 100)
    let refuse = true
    const report = async (page: readonly Conversation[]) => {
      if (page[0]?.id === 't_100' && refuse) throw new Error('server unreachable')
      await net.report(page)
    }
    await expect(
      runConversationSync(pageId, { ...net, report, pace: noPace, signal: new AbortController().signal }),
    ).rejects.toThrow('server unreachable')
    expect(await readSyncState(pageId)).toMatchObject({ after: '100', synced: 100 })
    expect(await db.conversations.count()).toBe(100)
    refuse = false
    await runConversationSync(pageId, { ...net, report, pace: noPace, signal: new AbortController().signal })
    expect(net.reported.map((ids) => ids[0])).toEqual(['t_0', 't_100', 't_200'])
    expect(await db.conversations.count()).toBe(300)
  })
})

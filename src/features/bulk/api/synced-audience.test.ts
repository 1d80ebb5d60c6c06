/** The wizard's audience read from the device's synced conversations (IndexedDB in Chromium). */
import { beforeEach, expect, it } from 'vitest'
import { db, type CachedConversation } from '../../../device/db/db.ts'
import { syncedAudience } from './synced-audience.ts'

const PAGE = 'p1'
const row = (i: number, over: Partial<CachedConversation> = {}): CachedConversation => ({
  key: `${PAGE}:t${i}`,
  pageId: PAGE,
  id: `t${i}`,
  updatedAt: 1_000 + i,
  customerId: `c${i}`,
  customerName: `Customer ${i}`,
  snippet: 'Hi',
  unreadCount: 0,
  canReply: true,
  lastCustomerMessageAt: 500 + i,
  ...over,
})

beforeEach(async () => {
  await Promise.all([db.conversations.clear(), db.inboxSync.clear()])
})

it('reads every customer the page can reply to, newest first, once a sync reached the end of the list', async () => {
  await db.conversations.bulkPut([
    row(1),
    row(2, { canReply: false }),
    row(3),
    row(4, { pageId: 'other', key: 'other:t4' }),
  ])
  await db.inboxSync.put({ pageId: PAGE, synced: 3, done: true, startedAt: 0, whole: true })
  expect(await syncedAudience(PAGE)).toEqual([
    {
      recipientId: 'c3',
      name: 'Customer 3',
      conversationId: 't3',
      lastCustomerMessageAt: 503,
      updatedAt: 1_003,
    },
    {
      recipientId: 'c1',
      name: 'Customer 1',
      conversationId: 't1',
      lastCustomerMessageAt: 501,
      updatedAt: 1_001,
    },
  ])
})

it('answers nothing while no sync of the page has reached the end of its list: the network is read', async () => {
  await db.conversations.bulkPut([row(1)])
  expect(await syncedAudience(PAGE)).toBeUndefined()
  await db.inboxSync.put({ pageId: PAGE, synced: 1, done: false, startedAt: 0, after: 'x' })
  expect(await syncedAudience(PAGE)).toBeUndefined()
})

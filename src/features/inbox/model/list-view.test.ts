import { describe, expect, it } from 'vitest'
import type { ConversationState } from '../../../core/contracts/conversation-states.ts'
import type { CachedConversation } from '../../../device/db/db.ts'
import {
  applyFilter,
  filterCounts,
  filterSearch,
  parseFilter,
  toInboxRow,
  toInboxRows,
  windowLeft,
} from './list-view.ts'

const HOUR = 3_600_000
const NOW = Date.parse('2026-06-01T12:00:00Z')

function conv(id: string, over: Partial<CachedConversation> = {}): CachedConversation {
  return {
    key: `p:${id}`,
    pageId: 'p',
    id,
    updatedAt: NOW - HOUR,
    customerId: `c${id}`,
    customerName: `Customer ${id}`,
    snippet: 'hello',
    unreadCount: 0,
    canReply: true,
    ...over,
  }
}

function state(customerId: string, over: Partial<ConversationState> = {}): ConversationState {
  return {
    pageId: 'p',
    customerId,
    customerAt: null,
    customerText: null,
    unread: 0,
    answeredAt: null,
    doneAt: null,
    doneBy: null,
    broadcastAt: null,
    broadcastText: null,
    needsReply: false,
    ...over,
  }
}

const iso = (ms: number) => new Date(ms).toISOString()

describe('the list rows with their needs-reply states', () => {
  it('after a broadcast the row keeps the customer words and unread count, the broadcast apart', () => {
    // What the network shows after a broadcast: the promotion as the snippet, nothing unread.
    const row = conv('1', { snippet: 'Sunday promotion', unreadCount: 0, updatedAt: NOW - 60_000 })
    const s = state('c1', {
      customerAt: iso(NOW - 2 * HOUR),
      customerText: 'Do you have it in size M?',
      unread: 3,
      broadcastAt: iso(NOW - 60_000),
      broadcastText: 'Sunday promotion',
      needsReply: true,
    })
    const shown = toInboxRow(row, s)
    expect(shown).toMatchObject({
      snippet: 'Do you have it in size M?',
      unreadCount: 3,
      broadcastText: 'Sunday promotion',
      needsReply: true,
      windowEndsAt: NOW - 2 * HOUR + 24 * HOUR,
    })
    // Opened here since: nothing unread, still waiting for an answer.
    expect(toInboxRow({ ...row, seenAt: NOW }, s)).toMatchObject({ unreadCount: 0, needsReply: true })
    // A person answered after the broadcast: the network's row as it is.
    const answered = toInboxRow(row, { ...s, answeredAt: iso(NOW), needsReply: false })
    expect(answered).toMatchObject({ snippet: 'Sunday promotion', unreadCount: 0, needsReply: false })
    expect(answered.broadcastText).toBeUndefined()
  })

  it('without a state, a conversation whose newest message is the customer’s needs a reply', () => {
    expect(toInboxRow(conv('1', { lastCustomerMessageAt: NOW - HOUR }), undefined).needsReply).toBe(true)
    expect(toInboxRow(conv('1', { lastCustomerMessageAt: NOW - 2 * HOUR }), undefined).needsReply).toBe(false)
    // A state decides: marked done.
    const done = state('c1', { doneAt: iso(NOW), needsReply: false })
    expect(toInboxRow(conv('1', { lastCustomerMessageAt: NOW - HOUR }), done).needsReply).toBe(false)
  })

  it('filters, counts, the window left and "window closing first"', () => {
    const rows = toInboxRows(
      [
        conv('new', { updatedAt: NOW - 60_000, unreadCount: 2, lastCustomerMessageAt: NOW - 60_000 }),
        conv('closing', { updatedAt: NOW - 22 * HOUR, lastCustomerMessageAt: NOW - 22 * HOUR }),
        conv('answered', { updatedAt: NOW - 2 * HOUR, lastCustomerMessageAt: NOW - 3 * HOUR }),
        conv('closed', { updatedAt: NOW - 30 * HOUR, lastCustomerMessageAt: NOW - 30 * HOUR }),
      ],
      new Map(),
    )
    expect(filterCounts(rows)).toEqual({ all: 4, unread: 1, needs_reply: 3 })
    const waiting = applyFilter(rows, { kind: 'needs_reply' }, 'newest', NOW).map((r) => r.id)
    expect(waiting).toEqual(['new', 'closing', 'closed'])
    const closingFirst = applyFilter(rows, { kind: 'all' }, 'window', NOW).map((r) => r.id)
    expect(closingFirst).toEqual(['closing', 'new', 'answered', 'closed'])
    expect(windowLeft(rows[1]!, NOW)).toBe(2 * HOUR)
    expect(windowLeft(rows[0]!, NOW)).toBeUndefined()
    expect(windowLeft(rows[3]!, NOW)).toBeUndefined()
  })

  it('reads and writes the filter in the address', () => {
    expect(parseFilter({ filter: 'needs_reply' })).toEqual({ kind: 'needs_reply' })
    expect(parseFilter({ filter: 'nonsense' })).toEqual({ kind: 'all' })
    expect(filterSearch({ kind: 'unread' })).toEqual({ filter: 'unread' })
    expect(filterSearch({ kind: 'all' })).toEqual({})
  })
})

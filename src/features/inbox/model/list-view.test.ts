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
  waitingFor,
  windowLeft,
} from './list-view.ts'
import type { WindowOptions } from '../../../core/policy/window.ts'

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
const CURRENT = { policy: 'current', humanAgentEnabled: false } as const

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
    // The customer writes again after the broadcast: the network counts only the new message, the state all four.
    const again = conv('1', { snippet: 'Hello?', unreadCount: 1, updatedAt: NOW, lastCustomerMessageAt: NOW })
    const more = { ...s, customerAt: iso(NOW), customerText: 'Hello?', unread: 4 }
    expect(toInboxRow(again, more)).toMatchObject({ snippet: 'Hello?', unreadCount: 4, needsReply: true })
    expect(toInboxRow(again, more).broadcastText).toBeUndefined()
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
    expect(filterCounts(rows, NOW, CURRENT)).toEqual({ all: 4, unread: 1, needs_reply: 2, window_closed: 1 })
    const waiting = applyFilter(rows, { kind: 'needs_reply' }, 'newest', NOW, CURRENT).map((r) => r.id)
    expect(waiting).toEqual(['new', 'closing'])
    const closed = applyFilter(rows, { kind: 'window_closed' }, 'newest', NOW, CURRENT).map((r) => r.id)
    expect(closed).toEqual(['closed'])
    const closingFirst = applyFilter(rows, { kind: 'all' }, 'window', NOW, CURRENT).map((r) => r.id)
    expect(closingFirst).toEqual(['closing', 'new', 'answered', 'closed'])
    expect(windowLeft(rows[1]!, NOW)).toBe(2 * HOUR)
    expect(windowLeft(rows[0]!, NOW)).toBeUndefined()
    expect(windowLeft(rows[3]!, NOW)).toBeUndefined()
  })

  it('splits who is waiting by what a reply reaches: 24 hours, 7 days with HUMAN_AGENT, everyone under legacy', () => {
    const rows = toInboxRows(
      [
        conv('hour', { updatedAt: NOW - HOUR, lastCustomerMessageAt: NOW - HOUR }),
        conv('days', { updatedAt: NOW - 3 * 24 * HOUR, lastCustomerMessageAt: NOW - 3 * 24 * HOUR }),
        conv('months', { updatedAt: NOW - 90 * 24 * HOUR, lastCustomerMessageAt: NOW - 90 * 24 * HOUR }),
        // Waiting by its state (a backlog from before the page was connected), the network's time older.
        conv('state', { updatedAt: NOW - 200 * 24 * HOUR }),
        conv('answered', { updatedAt: NOW - HOUR, lastCustomerMessageAt: NOW - 2 * HOUR }),
      ],
      new Map([['cstate', state('cstate', { customerAt: iso(NOW - 2 * HOUR), needsReply: true })]]),
    )
    const split = (options: WindowOptions) =>
      Object.fromEntries(rows.map((r) => [r.id, waitingFor(r, NOW, options)]))
    expect(split(CURRENT)).toEqual({
      hour: 'reply',
      days: 'window_closed',
      months: 'window_closed',
      state: 'reply',
      answered: undefined,
    })
    expect(split({ policy: 'current', humanAgentEnabled: true })).toMatchObject({
      days: 'reply',
      months: 'window_closed',
    })
    expect(filterCounts(rows, NOW, { policy: 'legacy', humanAgentEnabled: false })).toMatchObject({
      needs_reply: 4,
      window_closed: 0,
    })
    // A window closes as time passes: the row moves over without any new message.
    expect(waitingFor(rows[0]!, NOW + 24 * HOUR, CURRENT)).toBe('window_closed')
  })

  it('reads and writes the filter in the address', () => {
    expect(parseFilter({ filter: 'needs_reply' })).toEqual({ kind: 'needs_reply' })
    expect(parseFilter({ filter: 'window_closed' })).toEqual({ kind: 'window_closed' })
    expect(filterSearch({ kind: 'window_closed' })).toEqual({ filter: 'window_closed' })
    expect(parseFilter({ filter: 'nonsense' })).toEqual({ kind: 'all' })
    expect(filterSearch({ kind: 'unread' })).toEqual({ filter: 'unread' })
    expect(filterSearch({ kind: 'all' })).toEqual({})
  })
})

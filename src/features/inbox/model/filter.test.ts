import { describe, expect, it } from 'vitest'
import type { CachedConversation } from '../../../device/db/db.ts'
import { filterConversations } from './filter.ts'
import { mergeConversations } from './merge.ts'
import { customerOf, snippetPreview, toCachedConversation } from './conversation.ts'

function row(id: string, name: string, snippet: string, updatedAt = 0): CachedConversation {
  return {
    key: `p:${id}`,
    pageId: 'p',
    id,
    updatedAt,
    customerId: `u${id}`,
    customerName: name,
    snippet,
    unreadCount: 0,
    canReply: true,
  }
}

const rows = [
  row('1', 'Ana López', 'Hola, ¿tienen envío?'),
  row('2', 'Sokha', 'តើមានទំនិញទេ?'),
  row('3', 'Budi', 'Harga berapa?'),
]

describe('filterConversations', () => {
  it('matches the participant name case-insensitively', () => {
    expect(filterConversations(rows, 'ana').map((r) => r.id)).toEqual(['1'])
  })

  it('matches the snippet, including non-Latin scripts', () => {
    expect(filterConversations(rows, 'HARGA').map((r) => r.id)).toEqual(['3'])
    expect(filterConversations(rows, 'ទំនិញ').map((r) => r.id)).toEqual(['2'])
  })

  it('returns every row for an empty or blank filter', () => {
    expect(filterConversations(rows, '  ')).toBe(rows)
  })

  it('returns nothing when no row matches', () => {
    expect(filterConversations(rows, 'zzz')).toEqual([])
  })
})

describe('conversation rows', () => {
  it('shows the first 25 letters of the snippet, whole clusters only, then an ellipsis', () => {
    expect(snippetPreview('a'.repeat(30))).toBe(`${'a'.repeat(25)}…`)
    expect(snippetPreview('😀'.repeat(30))).toBe(`${'😀'.repeat(25)}…`)
    expect(snippetPreview(`${'ক'.repeat(24)}ক্ষমা`)).toBe(`${'ক'.repeat(24)}ক্ষ…`)
    expect(snippetPreview('short')).toBe('short')
  })

  it('takes the customer from the participants, never the page', () => {
    const conv = {
      id: 'c',
      updated_time: '2026-01-01T00:00:00+0000',
      participants: {
        data: [
          { id: 'page', name: 'Shop' },
          { id: 'u1', name: 'Ana' },
        ],
      },
    }
    expect(customerOf(conv, 'page')).toEqual({ id: 'u1', name: 'Ana' })
  })

  it('keeps a known last customer message time when the conversation is refreshed', () => {
    const conv = {
      id: 'c',
      updated_time: '2026-01-02T00:00:00+0000',
      participants: { data: [{ id: 'u1', name: 'Ana' }] },
      snippet: 'hi',
    }
    const previous = { ...toCachedConversation('p', conv), lastCustomerMessageAt: 42 }
    expect(toCachedConversation('p', conv, previous).lastCustomerMessageAt).toBe(42)
    expect(toCachedConversation('p', conv).updatedAt).toBe(Date.UTC(2026, 0, 2))
  })

  it('takes updated_time as the customer’s last message only while the conversation is unread', () => {
    const base = {
      id: 'c',
      updated_time: '2026-01-02T00:00:00+0000',
      participants: { data: [{ id: 'u1', name: 'Ana' }] },
    }
    expect(toCachedConversation('p', { ...base, unread_count: 2 }).lastCustomerMessageAt).toBe(
      Date.UTC(2026, 0, 2),
    )
    expect(toCachedConversation('p', { ...base, unread_count: 0 }).lastCustomerMessageAt).toBeUndefined()
  })

  it('merges loaded pages newest first without duplicates', () => {
    const merged = mergeConversations(
      [row('1', 'A', '', 10), row('2', 'B', '', 5)],
      [row('2', 'B', 'new', 20), row('3', 'C', '', 1)],
    )
    expect(merged.map((r) => [r.id, r.snippet])).toEqual([
      ['2', 'new'],
      ['1', ''],
      ['3', ''],
    ])
  })
})

describe('filterConversations with the fuzzy matcher', () => {
  const many = [
    row('1', 'Paolo Wijaya', 'Hello'),
    row('2', 'Paolo Hidayat', 'Hello'),
    row('3', 'Ana Wijaya', 'Hello'),
    row('4', 'Budi', 'paolo wijaya told me about you'),
  ]

  it('keeps substring matches first, then names with a typo', async () => {
    const Matcher = (await import('fuse.js')).default
    expect(filterConversations(many, 'paolo wijaya', Matcher).map((r) => r.id)).toEqual(['1', '4'])
    expect(filterConversations(many, 'Paolo Wijya', Matcher).map((r) => r.id)).toEqual(['1'])
    expect(filterConversations(many, 'zzzz-no-such-text', Matcher)).toEqual([])
  })

  it('leaves short queries to the substring match', async () => {
    const Matcher = (await import('fuse.js')).default
    expect(filterConversations(many, 'pao', Matcher).map((r) => r.id)).toEqual(['1', '2', '4'])
  })
})

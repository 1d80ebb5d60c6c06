import { describe, expect, it } from 'vitest'
import { lastCustomerMessageAt, mergeHistory, toCachedMessage } from './message.ts'

const msg = (id: string, from: string, iso: string) =>
  toCachedMessage('page', 'c', {
    id,
    created_time: iso,
    from: { id: from, name: from },
    to: { data: [] },
    message: id,
  })

describe('chat history', () => {
  it('finds the customer’s latest message, ignoring the page’s own', () => {
    const rows = [
      msg('a', 'u1', '2026-01-01T10:00:00Z'),
      msg('b', 'page', '2026-01-02T10:00:00Z'),
      msg('c', 'u1', '2026-01-01T12:00:00Z'),
    ]
    expect(lastCustomerMessageAt('page', rows)).toBe(Date.UTC(2026, 0, 1, 12))
    expect(lastCustomerMessageAt('page', [rows[1]!])).toBeUndefined()
  })

  it('keeps the history oldest first without duplicates when pages overlap', () => {
    const a = [msg('2', 'u1', '2026-01-02T00:00:00Z'), msg('3', 'u1', '2026-01-03T00:00:00Z')]
    const b = [msg('1', 'u1', '2026-01-01T00:00:00Z'), msg('2', 'u1', '2026-01-02T00:00:00Z')]
    expect(mergeHistory(a, b).map((m) => m.id)).toEqual(['1', '2', '3'])
  })

  it('keeps the images a message carries', () => {
    const m = toCachedMessage('page', 'c', {
      id: 'x',
      created_time: '2026-01-01T00:00:00Z',
      from: { id: 'u', name: 'U' },
      to: { data: [{ id: 'page', name: 'P' }] },
      message: '',
      attachments: { data: [{ image_data: { url: 'http://img/1.png' } }] },
    })
    expect(m.imageUrls).toEqual(['http://img/1.png'])
    expect(m.toId).toBe('page')
  })
})

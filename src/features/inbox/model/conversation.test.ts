import { describe, expect, it } from 'vitest'
import type { Conversation } from '../../../core/graph/types.ts'
import type { CachedConversation } from '../../../device/db/db.ts'
import { sameNameTells, toCachedConversation } from './conversation.ts'

const base: Conversation = {
  id: 't_1',
  updated_time: '2026-11-22T10:00:00+0000',
  participants: { data: [{ id: '5551', name: 'Sokha' }] },
  can_reply: true,
}

describe('a cached conversation', () => {
  it('keeps the conversation’s own link on the network, made absolute, as the way to the customer', () => {
    const row = toCachedConversation('99', { ...base, link: '/99/inbox/t_1' })
    expect(row.link).toBe('https://www.facebook.com/99/inbox/t_1')
  })

  it('has no link when the network gives none: a page-scoped id is no profile address', () => {
    expect(toCachedConversation('99', base).link).toBeUndefined()
  })
})

describe('customers who share a name', () => {
  const row = (id: string, customerId: string, customerName: string) =>
    ({ id, customerId, customerName }) as CachedConversation

  it('are told apart by the end of their ids; a name of its own gets nothing', () => {
    const tells = sameNameTells([
      row('a', '100000000004821', 'Ana López'),
      row('b', '200000000007310', 'ana lópez '),
      row('c', '300000000001111', 'Budi Putri'),
    ])
    expect(tells.get('a')).toBe('#4821')
    expect(tells.get('b')).toBe('#7310')
    expect(tells.has('c')).toBe(false)
  })

  it('takes as many digits as it needs to differ', () => {
    const tells = sameNameTells([row('a', '1234564821', 'Sok'), row('b', '9999994821', 'Sok')])
    expect(tells.get('a')).not.toBe(tells.get('b'))
  })
})

import { describe, expect, it } from 'vitest'
import type { Conversation } from '../../../shared/graph/types.ts'
import { toCachedConversation } from './conversation.ts'

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

import { describe, expect, it } from 'vitest'
import type { Account } from '../../../core/graph/types.ts'
import { loadFuzzy, loadedFuzzy } from '../../../shared/ui/fuzzy-matcher.ts'
import { connectedFirst, searchPages } from './search.ts'

const pages: Account[] = [
  { id: '1', name: 'Tacos El Güero' },
  { id: '2', name: 'Panadería Rosa', access_token: 't2' },
  { id: '3', name: 'Bicycle Repair Shop', access_token: 't3' },
  { id: '4', name: 'Rosa Flowers' },
]

describe('page list', () => {
  it('matches a plain part of the name before the fuzzy matcher is loaded', () => {
    expect(loadedFuzzy()).toBeUndefined()
    expect(searchPages(pages, 'rosa').map((p) => p.id)).toEqual(['2', '4'])
    expect(searchPages(pages, 'bicycel')).toEqual([])
  })

  it('lists pages with an access token first, keeping their order', () => {
    expect(connectedFirst(pages).map((p) => p.id)).toEqual(['2', '3', '1', '4'])
  })
  it('orders a saved session, which holds no token, by the pages it says were connected', () => {
    const saved = pages.map(({ id, name }) => ({ id, name }))
    const wasConnected = (a: Account) => a.id === '2' || a.id === '3'
    expect(searchPages(saved, '', undefined, wasConnected).map((p) => p.id)).toEqual(['2', '3', '1', '4'])
  })
  it('finds pages by a case-insensitive part of the name', () => {
    expect(searchPages(pages, 'rosa').map((p) => p.id)).toEqual(['2', '4'])
    expect(searchPages(pages, 'BICYCLE').map((p) => p.id)).toEqual(['3'])
  })
  it('forgives a small typo but not an unrelated word, once the fuzzy matcher is loaded', async () => {
    await loadFuzzy()
    expect(searchPages(pages, 'bicycel').map((p) => p.id)).toEqual(['3'])
    expect(searchPages(pages, 'pizza')).toEqual([])
  })
  it('shows every page when the search is empty', () => {
    expect(searchPages(pages, '  ')).toHaveLength(4)
  })
})

import { describe, expect, it } from 'vitest'
import { type AppNotification, pushNotification } from './model.ts'

const make = (id: string, persistent = false): AppNotification => ({
  id,
  kind: 'info',
  title: id,
  persistent,
  createdAt: 0,
})

describe('notification stack', () => {
  it('keeps at most five, dropping the oldest', () => {
    let list: AppNotification[] = []
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) list = pushNotification(list, make(id))
    expect(list.map((n) => n.id)).toEqual(['c', 'd', 'e', 'f', 'g'])
  })
  it('makes room by dropping an auto-closing one before a persistent one', () => {
    let list = [make('p1', true), make('a'), make('p2', true), make('b'), make('p3', true)]
    list = pushNotification(list, make('new'))
    expect(list.map((n) => n.id)).toEqual(['p1', 'p2', 'b', 'p3', 'new'])
  })
})

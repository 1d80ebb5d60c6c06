/**
 * The hub under a busy page: announcements that arrive together are read from the database in one query, and
 * each stream is written what it is owed in one write, in the order of the events.
 */
import { describe, expect, it, vi } from 'vitest'
import type { Queryable, Store } from '../db/store.ts'
import { EventHub, type StreamSink } from './hub.ts'

interface Row {
  id: number
  user_id: number
  type: string
  data: unknown
}

/** A store that holds `rows` as owner_events, counts its reads by id and hands out the listener. */
function fakeStore(rows: Row[]) {
  const reads: number[][] = []
  let notify: ((payload: string) => void) | undefined
  const query = async <T extends object>(sql: string, params: readonly unknown[] = []): Promise<T[]> => {
    if (sql.includes('FROM owner_events WHERE id = ANY')) {
      const ids = params[0] as number[]
      reads.push(ids)
      await new Promise((r) => setTimeout(r, 5))
      return rows.filter((r) => ids.includes(r.id)).sort((x, y) => x.id - y.id) as unknown as T[]
    }
    return [{ last: 0 }] as unknown as T[]
  }
  const db: Queryable = { query, exec: async () => undefined }
  const store: Store = {
    ...db,
    kind: 'postgres',
    transaction: (fn) => fn(db),
    session: (fn) => fn(db),
    listen: async (_channel, onNotify) => {
      notify = onNotify
      return async () => undefined
    },
    close: async () => undefined,
  }
  return { store, reads, notify: (payload: string) => notify!(payload) }
}

function sink(userId: string): StreamSink & { writes: string[] } {
  const writes: string[] = []
  return { userId, writes, write: (text) => (writes.push(text), true), close: () => undefined }
}

describe('the event hub', () => {
  it('reads announcements that arrive together in one query and writes each stream once', async () => {
    const rows: Row[] = []
    for (let id = 1; id <= 6; id++)
      rows.push({ id, user_id: id % 2 === 1 ? 1 : 2, type: 'message', data: { mid: `m${id}` } })
    const { store, reads, notify } = fakeStore(rows)
    const hub = new EventHub(store, { heartbeatMs: 60_000, pruneEveryMs: 60_000 })
    await hub.start()
    const one = sink('1')
    const two = sink('2')
    await hub.open(one, undefined)
    await hub.open(two, undefined)
    one.writes.length = 0
    two.writes.length = 0

    // Three announcements in a row, as one read of the listening connection hands them over.
    notify('1:2,2:1')
    notify('3:2,4:1')
    notify('5:2,6:1')
    await vi.waitFor(() => expect(two.writes).toHaveLength(1))

    expect(reads).toEqual([[1, 2, 3, 4, 5, 6]])
    expect(one.writes).toHaveLength(1)
    expect(two.writes).toHaveLength(1)
    const mids = (text: string) => [...text.matchAll(/"mid":"(m\d)"/g)].map((m) => m[1])
    expect(mids(one.writes[0]!)).toEqual(['m1', 'm3', 'm5'])
    expect(mids(two.writes[0]!)).toEqual(['m2', 'm4', 'm6'])

    // What is announced while a read is under way is read next, after it, in order.
    notify('7:1')
    await new Promise((r) => setTimeout(r, 1))
    notify('8:1')
    notify('9:1')
    rows.push(
      { id: 7, user_id: 1, type: 'message', data: { mid: 'm7' } },
      { id: 8, user_id: 1, type: 'message', data: { mid: 'm8' } },
      { id: 9, user_id: 1, type: 'message', data: { mid: 'm9' } },
    )
    await vi.waitFor(() => expect(reads).toHaveLength(3))
    await vi.waitFor(() => expect(one.writes).toHaveLength(3))
    expect(reads.slice(1)).toEqual([[7], [8, 9]])
    expect(one.writes.slice(1).flatMap(mids)).toEqual(['m7', 'm8', 'm9'])
    await hub.close()
  })
})

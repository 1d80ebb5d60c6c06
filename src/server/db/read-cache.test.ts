import { afterEach, describe, expect, it, vi } from 'vitest'
import { READ_CACHE_MS, ReadCache } from './read-cache.ts'
import { WriteLog } from './write-watch.ts'

describe('the write log', () => {
  it('counts the tables a statement writes, not those it only reads', () => {
    const log = new WriteLog()
    const before = { users: log.version(['users']), subs: log.version(['subscriptions']) }
    log.note(`WITH msg AS (SELECT id FROM messages FOR NO KEY UPDATE), c AS (INSERT INTO message_recipients
      SELECT 1 FROM msg ON CONFLICT DO UPDATE SET status = 'OK' RETURNING 1)
      , spent AS (UPDATE subscriptions s SET addons_messages = 0 RETURNING s.*)
      SELECT * FROM spent JOIN users u ON u.id = spent.user_id`)
    expect(log.version(['users'])).toBe(before.users)
    expect(log.version(['subscriptions'])).not.toBe(before.subs)
    log.note('SELECT * FROM sessions JOIN users ON true')
    expect(log.version(['sessions', 'users'])).toBe(before.users)
    log.note('DELETE FROM sessions WHERE id = $1')
    expect(log.version(['sessions', 'users'])).not.toBe(before.users)
  })

  it('counts a statement whose targets it cannot name as a write of every table', () => {
    const log = new WriteLog()
    const before = log.version(['terms'])
    log.note('CALL tidy_up()')
    expect(log.version(['terms'])).not.toBe(before)
  })
})

describe('the read cache', () => {
  afterEach(() => vi.useRealTimers())

  it('answers from the copy until a watched table is written, then reads again', async () => {
    const log = new WriteLog()
    const cache = new ReadCache<number>(log, ['sessions'])
    const load = vi.fn(async () => load.mock.calls.length)
    expect(await cache.get('k', load)).toBe(1)
    expect(await cache.get('k', load)).toBe(1)
    log.note('UPDATE messages SET ok_count = 1')
    expect(await cache.get('k', load)).toBe(1)
    log.note('DELETE FROM sessions WHERE id = 1')
    expect(await cache.get('k', load)).toBe(2)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('never keeps a read that overlapped a write', async () => {
    const log = new WriteLog()
    const cache = new ReadCache<string>(log, ['subscriptions'])
    const stale = await cache.get('k', async () => {
      log.note('UPDATE subscriptions SET addons_messages = 5')
      return 'before the write'
    })
    expect(stale).toBe('before the write')
    expect(await cache.get('k', async () => 'after the write')).toBe('after the write')
  })

  it('reads again once the copy is older than its lifetime (writes made elsewhere)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000_000 })
    const cache = new ReadCache<string>(new WriteLog(), ['sessions'])
    await cache.get('k', async () => 'first')
    vi.setSystemTime(1_000_000 + READ_CACHE_MS - 1)
    expect(await cache.get('k', async () => 'second')).toBe('first')
    vi.setSystemTime(1_000_000 + READ_CACHE_MS)
    expect(await cache.get('k', async () => 'second')).toBe('second')
  })

  it('does not keep an absent value', async () => {
    const cache = new ReadCache<string | undefined>(new WriteLog(), ['sessions'])
    expect(await cache.get('k', async () => undefined)).toBeUndefined()
    expect(await cache.get('k', async () => 'now there')).toBe('now there')
  })
})

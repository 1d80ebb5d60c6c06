import { beforeEach, describe, expect, it } from 'vitest'
import { createSenderApi } from './api-port.ts'
import { outbox } from './records.ts'
import { deliverTouch, flushTouches, settleAcknowledged, touchEntry } from './touch-outbox.ts'
import { subscription } from '../../core/testing/session.ts'
import { FakeApi, resetDb } from '../testing/bulk-fakes.ts'

beforeEach(resetDb)

const ok = (id: string) => ({
  _method: 'PUT' as const,
  status: 'OK' as const,
  recipient_id: id,
  sent_as_branded: false,
})

describe('the touch outbox', () => {
  it('keeps touches queued while offline and delivers each exactly once when back', async () => {
    const api = new FakeApi(subscription(10))
    await outbox.bulkPut([touchEntry('j', '1', ok('1'), 1), touchEntry('j', '2', ok('2'), 2)])
    api.failTouches = 1
    const first = await flushTouches(api, 'j')
    expect(first.pending).toBe(true)
    expect(await outbox.count()).toBe(2)
    const second = await flushTouches(api, 'j')
    expect(second).toMatchObject({ delivered: 2, pending: false })
    expect(await outbox.count()).toBe(0)
    expect(api.sub.available_messages).toBe(8)
    expect(second.subscription?.available_messages).toBe(8)
  })

  it('spends the allowance once even when a touch is sent again', async () => {
    const api = new FakeApi(subscription(10))
    await outbox.put(touchEntry('j', '1', ok('1'), 1))
    await flushTouches(api)
    await outbox.put(touchEntry('j', '1', ok('1'), 2))
    await flushTouches(api)
    expect(api.touchCalls).toBe(2)
    expect(api.sub.available_messages).toBe(9)
  })

  it('reports an exhausted allowance when the server refuses a touch', async () => {
    const api = new FakeApi(subscription(0))
    await outbox.put(touchEntry('j', '1', ok('1'), 1))
    expect((await flushTouches(api)).exhausted).toBe(true)
    expect(await outbox.count()).toBe(0)
  })

  it('drops a touch the server refuses for its message (409) and delivers the ones after it', async () => {
    const sub = subscription(10)
    const seen: string[] = []
    const api = createSenderApi(
      'http://pagecast.test',
      () => 'token',
      async (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { recipient_id: string }
        seen.push(body.recipient_id)
        return body.recipient_id === '1'
          ? Response.json(
              { message: "This recipient is not one of this message's recipients." },
              { status: 409 },
            )
          : Response.json({ available_messages: 9, subscription: { ...sub, available_messages: 9 } })
      },
    )
    await outbox.bulkPut([touchEntry('j', '1', ok('1'), 1), touchEntry('j', '2', ok('2'), 2)])
    const result = await flushTouches(api, 'j')
    expect(result).toMatchObject({ delivered: 1, pending: false, exhausted: false })
    expect(seen).toEqual(['1', '2'])
    expect(await outbox.count()).toBe(0)
  })

  it('keeps an acknowledged touch queued until it is settled, and a repeat of it spends nothing', async () => {
    const api = new FakeApi(subscription(10))
    const entry = touchEntry('j', '1', ok('1'), 1)
    await outbox.put(entry)
    const acknowledged: string[] = []
    await deliverTouch(api, entry, undefined, acknowledged)
    expect(acknowledged).toEqual([entry.key])
    // A crash here leaves it queued: the next flush sends it again, and the server ignores the repeat.
    expect(await outbox.count()).toBe(1)
    await flushTouches(api)
    expect(api.sub.available_messages).toBe(9)
    await outbox.put(entry)
    await settleAcknowledged(acknowledged)
    expect(acknowledged).toEqual([])
    expect(await outbox.count()).toBe(0)
  })
})

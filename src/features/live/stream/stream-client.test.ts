import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LiveEvent } from '../model/events.ts'
import { startLiveStream, type EventSourceLike, type LiveStream } from './stream-client.ts'

/** A stand-in for the browser's EventSource that the test drives: open, deliver an event, fail. */
class FakeSource implements EventSourceLike {
  static all: FakeSource[] = []
  onopen: EventSourceLike['onopen'] = null
  onerror: EventSourceLike['onerror'] = null
  closed = false
  private listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>()
  constructor(readonly url: string) {
    FakeSource.all.push(this)
  }
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  close() {
    this.closed = true
  }
  open() {
    this.onopen?.call(undefined as never, new Event('open'))
  }
  fail() {
    this.onerror?.call(undefined as never, new Event('error'))
  }
  emit(type: string, data: unknown, id?: string) {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data), lastEventId: id ?? '' })
    for (const l of this.listeners.get(type) ?? []) l(event)
  }
}

let stream: LiveStream | undefined
afterEach(() => {
  stream?.stop()
  FakeSource.all = []
  vi.restoreAllMocks()
})

const latest = () => FakeSource.all.at(-1)!
const delivery = (customerId: string) => ({
  pageId: 'p1',
  customerId,
  watermark: '2026-11-23T10:00:00.000Z',
})

function start(onEvent: (e: LiveEvent) => void | Promise<void> = () => undefined, random = () => 0) {
  stream = startLiveStream({
    tabId: 'tab-1',
    onEvent,
    createSource: (url) => new FakeSource(url),
    base: 20,
    max: 80,
    random,
  })
  return stream
}

describe('the live stream client', () => {
  it('opens one stream for the tab and hands over checked events in order, ignoring malformed ones', async () => {
    const seen: string[] = []
    start(async (e) => {
      // A slow first event must not let the second overtake it.
      if (e.type === 'delivery' && e.data.customerId === 'a') await new Promise((r) => setTimeout(r, 30))
      seen.push(e.type === 'delivery' ? e.data.customerId : e.type)
    })
    expect(FakeSource.all).toHaveLength(1)
    expect(latest().url).toBe('/api/v2/events?tab=tab-1')
    latest().open()
    latest().emit('delivery', delivery('a'), '1')
    latest().emit('delivery', { pageId: 'p1' }, '2')
    latest().emit('delivery', delivery('b'), '3')
    await expect.poll(() => seen).toEqual(['a', 'b'])
    expect(stream!.lastEventId).toBe('3')
  })

  it('reconnects with a growing backoff after drops and resumes after the last event it received', async () => {
    const random = vi.fn(() => 1)
    const s = start(undefined, random)
    latest().open()
    latest().emit('delivery', delivery('a'), '41')
    const t0 = performance.now()
    latest().fail()
    expect(FakeSource.all[0]!.closed).toBe(true)
    expect(s.status).toBe('waiting')
    await expect.poll(() => FakeSource.all.length).toBe(2)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(15)
    expect(latest().url).toBe('/api/v2/events?tab=tab-1&since=41')
    // Still failing: the second wait is twice the first (full step with random() = 1).
    latest().fail()
    const t1 = performance.now()
    await expect.poll(() => FakeSource.all.length).toBe(3)
    expect(performance.now() - t1).toBeGreaterThanOrEqual(35)
    // Once a connection opens, the next drop starts from the first step again.
    latest().open()
    expect(s.status).toBe('open')
    latest().fail()
    await expect.poll(() => FakeSource.all.length).toBe(4)
    expect(s.connections).toBe(4)
  })

  it('closes while offline and reconnects at once, with since, when the connection returns', async () => {
    const s = start()
    latest().open()
    latest().emit('read', delivery('a'), '7')
    window.dispatchEvent(new Event('offline'))
    expect(s.status).toBe('offline')
    expect(latest().closed).toBe(true)
    expect(FakeSource.all).toHaveLength(1)
    window.dispatchEvent(new Event('online'))
    expect(FakeSource.all).toHaveLength(2)
    expect(latest().url).toBe('/api/v2/events?tab=tab-1&since=7')
  })

  it('after a drop before any event, reads everything again (a refetch), unless the server named a point to resume from', async () => {
    const seen: LiveEvent[] = []
    start((e) => void seen.push(e))
    latest().open()
    latest().fail()
    await expect.poll(() => FakeSource.all.length).toBe(2)
    expect(latest().url).toBe('/api/v2/events?tab=tab-1')
    latest().open()
    await expect.poll(() => seen).toEqual([{ type: 'refetch', data: { reason: 'gap' } }])
    // A `ready` event names the newest id: the next drop resumes after it, with nothing read again.
    latest().emit('ready', {}, '12')
    latest().fail()
    await expect.poll(() => FakeSource.all.length).toBe(3)
    expect(latest().url).toBe('/api/v2/events?tab=tab-1&since=12')
    latest().open()
    await new Promise((r) => setTimeout(r, 20))
    expect(seen).toHaveLength(1)
  })

  it('stops for good: no reconnection after stop()', async () => {
    const s = start()
    latest().fail()
    s.stop()
    await new Promise((r) => setTimeout(r, 120))
    expect(FakeSource.all).toHaveLength(1)
    expect(s.status).toBe('stopped')
  })
})

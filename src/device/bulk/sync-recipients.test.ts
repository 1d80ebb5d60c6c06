/** The recipient list's upload: resumed where the server's acknowledgements stopped, paced under the route's limit. */
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '../db/db.ts'
import { FakeApi, resetDb, seedJob } from '../testing/bulk-fakes.ts'
import { createSenderApi } from './api-port.ts'
import { jobs } from './records.ts'
import {
  RECIPIENT_CALL_GAP_MS,
  RECIPIENT_CALLS_PER_MIN,
  RECIPIENTS_PER_CALL,
  syncRecipients,
  uploadStep,
} from './sync-recipients.ts'

beforeEach(resetDb)

const T0 = 1_000_000

/** A clock that moves only when the upload waits, and the waits it was asked for. */
function fakeClock(start = T0) {
  const clock = {
    t: start,
    waits: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.waits.push(ms)
      clock.t += ms
    },
  }
  return clock
}

/** When each recipients call reached the fake server. */
function callTimes(api: FakeApi, now: () => number): number[] {
  const times: number[] = []
  const put = api.putRecipients.bind(api)
  api.putRecipients = (jobId, list) => {
    times.push(now())
    return put(jobId, list)
  }
  return times
}

/** The first recipient id and the size of each call the server received. */
const received = (api: FakeApi) => api.recipientCalls.map((c) => [c.ids[0], c.ids.length])

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i))

describe('uploading a job’s recipient list', () => {
  it('sends the list in calls of 5,000, in order', async () => {
    expect(RECIPIENTS_PER_CALL).toBe(5_000)
    await seedJob(12_000, { recipientsSynced: false })
    const api = new FakeApi()
    expect(await syncRecipients(api, 'job1', fakeClock())).toBe(true)
    expect(received(api)).toEqual([
      ['1', 5_000],
      ['5001', 5_000],
      ['10001', 2_000],
    ])
    expect(api.serverRecipients.get('job1')!.map((r) => r.recipient_id)).toEqual(ids(1, 12_000))
    expect(await jobs.get('job1')).toMatchObject({ recipientsSynced: true, recipientsUploaded: 12_000 })
  })

  it('resumes at the third call after it failed, sending each call’s recipients exactly once', async () => {
    await seedJob(17_000, { recipientsSynced: false })
    const api = new FakeApi()
    api.recipientFaults = [undefined, undefined, 'offline']
    const clock = fakeClock()
    expect(await syncRecipients(api, 'job1', clock)).toBe(false)
    expect(await jobs.get('job1')).toMatchObject({ recipientsSynced: false, recipientsUploaded: 10_000 })
    // The next try (a server error this time), then the one after it.
    api.recipientFaults = [{ status: 503 }]
    expect(await syncRecipients(api, 'job1', clock)).toBe(false)
    expect(await syncRecipients(api, 'job1', clock)).toBe(true)
    expect(received(api)).toEqual([
      ['1', 5_000],
      ['5001', 5_000],
      ['10001', 5_000],
      ['15001', 2_000],
    ])
    expect(api.serverRecipients.get('job1')!.map((r) => r.recipient_id)).toEqual(ids(1, 17_000))
  })

  it('waits the Retry-After of a 429 before the next call, then goes on with the refused part', async () => {
    await seedJob(12_000, { recipientsSynced: false })
    const api = new FakeApi()
    const clock = fakeClock()
    const times = callTimes(api, clock.now)
    api.recipientFaults = [undefined, { status: 429, retryAfterMs: 37_000 }]
    expect(await syncRecipients(api, 'job1', clock)).toBe(true)
    expect(times).toEqual([
      T0,
      T0 + RECIPIENT_CALL_GAP_MS,
      T0 + RECIPIENT_CALL_GAP_MS + 37_000,
      T0 + 2 * RECIPIENT_CALL_GAP_MS + 37_000,
    ])
    expect(received(api)).toEqual([
      ['1', 5_000],
      ['5001', 5_000],
      ['10001', 2_000],
    ])
  })

  it('reads the wait from the Retry-After header of the API’s 429', async () => {
    await seedJob(3, { recipientsSynced: false })
    const answers = [
      Response.json({ message: 'Too many requests.' }, { status: 429, headers: { 'Retry-After': '42' } }),
      Response.json({ added: 3, total: 3 }),
    ]
    const bodies: unknown[] = []
    const api = createSenderApi(
      '',
      () => 'token',
      async (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)))
        return answers.shift()!
      },
    )
    const clock = fakeClock()
    expect(await syncRecipients(api, 'job1', clock)).toBe(true)
    expect(clock.waits).toEqual([42_000])
    expect(bodies).toHaveLength(2)
    expect(bodies[1]).toEqual(bodies[0])
  })

  it('keeps the Retry-After across a reload: a new upload waits it out too', async () => {
    await seedJob(6_000, { recipientsSynced: false })
    const api = new FakeApi()
    api.recipientFaults = [{ status: 429, retryAfterMs: 20_000 }]
    expect(await uploadStep(api, 'job1', () => T0)).toEqual({ kind: 'wait', ms: 20_000 })
    expect(await uploadStep(api, 'job1', () => T0 + 5_000)).toEqual({ kind: 'wait', ms: 15_000 })
    expect(api.recipientCalls).toEqual([])
  })

  it('uploads 200,000 recipients in 40 calls under the route’s limit of 30 a minute, never refused', async () => {
    await seedJob(200_000, { recipientsSynced: false })
    const clock = fakeClock()
    const api = new FakeApi()
    api.recipientLimit = { max: RECIPIENT_CALLS_PER_MIN, now: clock.now }
    const times = callTimes(api, clock.now)
    expect(await syncRecipients(api, 'job1', clock)).toBe(true)
    expect(api.limited).toBe(0)
    expect(api.recipientCalls).toHaveLength(40)
    expect(api.recipientCalls.every((c) => c.ids.length === 5_000)).toBe(true)
    for (const t of times)
      expect(times.filter((u) => u >= t && u < t + 60_000).length).toBeLessThanOrEqual(30)
    const list = api.serverRecipients.get('job1')!
    expect([list.length, list[0]!.recipient_id, list[199_999]!.recipient_id]).toEqual([
      200_000,
      '1',
      '200000',
    ])
  })

  it('resumes after a reload where the last acknowledged call left it, after the wait it set', async () => {
    await seedJob(17_000, { recipientsSynced: false })
    const api = new FakeApi()
    // The tab is killed while it waits after its second call.
    const first = fakeClock()
    first.sleep = async (ms) => {
      first.waits.push(ms)
      if (api.recipientCalls.length === 2) return new Promise<never>(() => undefined)
      first.t += ms
    }
    void syncRecipients(api, 'job1', first)
    await expect.poll(() => first.waits.length, { timeout: 10_000 }).toBe(2)

    // A reload: nothing but IndexedDB survives; the same server answers the new upload.
    db.close()
    await db.open()
    const server = new FakeApi()
    server.serverRecipients = api.serverRecipients
    const second = fakeClock(first.t + 500)
    const times = callTimes(server, second.now)
    expect(await syncRecipients(server, 'job1', second)).toBe(true)
    expect(second.waits[0]).toBe(RECIPIENT_CALL_GAP_MS - 500)
    expect(times[0]).toBe(first.t + RECIPIENT_CALL_GAP_MS)
    expect([...received(api), ...received(server)]).toEqual([
      ['1', 5_000],
      ['5001', 5_000],
      ['10001', 5_000],
      ['15001', 2_000],
    ])
    expect(server.serverRecipients.get('job1')!.map((r) => r.recipient_id)).toEqual(ids(1, 17_000))
  })

  it('keeps one call at a time on the device: a second upload waits while one is in flight', async () => {
    await seedJob(6_000, { recipientsSynced: false })
    const api = new FakeApi()
    let answer!: () => void
    const put = api.putRecipients.bind(api)
    api.putRecipients = async (jobId, list) => {
      await new Promise<void>((resolve) => (answer = resolve))
      return put(jobId, list)
    }
    const inFlight = uploadStep(api, 'job1', () => T0)
    await expect.poll(() => answer, { timeout: 5_000 }).toBeTypeOf('function')
    expect(await uploadStep(api, 'job1', () => T0)).toEqual({ kind: 'wait', ms: RECIPIENT_CALL_GAP_MS })
    answer()
    expect(await inFlight).toEqual({ kind: 'wait', ms: RECIPIENT_CALL_GAP_MS })
    expect(received(api)).toEqual([['1', 5_000]])
  })
})

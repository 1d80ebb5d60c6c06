import { beforeEach, describe, expect, it } from 'vitest'
import { handOverClosingJob, handOverJob, takeBackJob } from './handover.ts'
import { jobs, outbox, recipientKey, recipients } from './records.ts'
import { touchEntry } from './touch-outbox.ts'
import { recordSending, resetDb, seedJob } from '../testing/bulk-fakes.ts'

beforeEach(resetDb)

interface Call {
  url: string
  body: unknown
  keepalive: boolean
}

/** The API as a table of answers by path ending; every call is kept. */
function fakeApi(answers: Record<string, unknown>) {
  const calls: Call[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({
      url,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      keepalive: !!init.keepalive,
    })
    const key = Object.keys(answers).find((k) => url.includes(k))
    return new Response(JSON.stringify(answers[key!] ?? {}), { status: key ? 200 : 404 })
  }) as typeof globalThis.fetch
  return { calls, transport: { origin: 'http://api.test', token: () => 'bearer', fetch } }
}

const ok = (id: string) => ({
  _method: 'PUT' as const,
  status: 'OK' as const,
  recipient_id: id,
  sent_as_branded: false,
})

describe('the hand-over of a job between the device and the server', () => {
  it("hands a closing page's job over at once, in a request that outlives the page, with the API's headers", async () => {
    await seedJob(3, { keepSending: true, state: 'running', nextSendAt: 7_000, serverLease: 2 })
    const job = (await jobs.get('job1'))!
    const sent: { url: string; init: RequestInit }[] = []
    const fetch = ((url: string, init: RequestInit) => {
      sent.push({ url, init })
      return Promise.reject(new TypeError('the page is gone'))
    }) as unknown as typeof globalThis.fetch
    handOverClosingJob({ origin: 'http://api.test', token: () => 'bearer', fetch }, job, 'page-token')
    // Sent before anything is awaited: `pagehide` gives no later turn.
    expect(sent).toHaveLength(1)
    const { url, init } = sent[0]!
    expect(url).toBe('http://api.test/api/v2/messages/job1/handover')
    expect(init).toMatchObject({ method: 'POST', keepalive: true })
    const headers = new Headers(init.headers)
    expect(Object.fromEntries(headers)).toEqual({
      accept: 'application/json',
      authorization: 'Bearer bearer',
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
    })
    expect(JSON.parse(String(init.body))).toEqual({
      lease: 2,
      page_token: 'page-token',
      next_send_at: 7_000,
      messaging_type: job.messagingType,
      branded_from: job.brandedFrom,
      kind: job.kind,
    })
    await expect.poll(async () => (await jobs.get('job1'))?.state).toBe('on_server')
    expect((await jobs.get('job1'))?.lease).toBe(job.lease + 1)
  })

  it('stops the device, then gives the server its undelivered results, its uncertain sends and its pacing', async () => {
    await seedJob(6, { keepSending: true, state: 'running', nextSendAt: 5_000 })
    await recordSending('job1', [0, 1], 1_000)
    await recipients.update(recipientKey('job1', '1'), { state: 'sent' })
    await outbox.put(touchEntry('job1', '1', ok('1'), 1))
    const { calls, transport } = fakeApi({ '/handover': { lease: 1, sender: 'server' } })
    expect(await handOverJob(transport, 'job1', 'page-token', true)).toBe(true)
    const job = (await jobs.get('job1'))!
    expect(job).toMatchObject({ state: 'on_server', lease: 1, serverLease: 1 })
    expect(calls[0]).toMatchObject({
      url: 'http://api.test/api/v2/messages/job1/handover',
      keepalive: true,
      body: {
        lease: 0,
        page_token: 'page-token',
        cursor: 2,
        next_send_at: 5_000,
        results: [ok('1')],
        uncertain: [{ recipient_id: '2', attempt_at: 1_000 }],
      },
    })
    // Nothing is handed over twice, nor a job the owner did not ask to be carried on.
    expect(await handOverJob(transport, 'job1', 'page-token')).toBe(false)
    await seedJob(2, { id: 'job2', state: 'running' })
    expect(await handOverJob(transport, 'job2', 'page-token')).toBe(false)
    expect(calls).toHaveLength(1)
  })

  it("takes the job back with the server's record as the truth, keeping what only the device knows", async () => {
    await seedJob(7, { keepSending: true, state: 'on_server', nextSendAt: 0 })
    // The device had sent recipient 1 (its touch still queued) before its hand-over went.
    await recordSending('job1', [0], 1_000)
    await recipients.update(recipientKey('job1', '1'), { state: 'sent' })
    const server = (id: string, status: 'OK' | 'NG' | null) => ({
      recipient_id: id,
      name: `Person ${id}`,
      conversation_id: `c${id}`,
      status,
      sent_as_branded: false,
    })
    const { transport } = fakeApi({
      '/take-back': {
        lease: 3,
        sender: 'device',
        state: 'open',
        next_send_at: 9_000,
        attachment_id: null,
        uncertain: [{ recipient_id: '5', attempt_at: 2_000, image_sent: false, branded: false }],
      },
      '/recipients': {
        data: [
          server('1', null),
          server('2', 'OK'),
          server('3', 'NG'),
          server('4', null),
          server('5', null),
          server('6', null),
          server('7', null),
        ],
        next: null,
      },
    })
    expect(await takeBackJob(transport, 'job1')).toBe(true)
    const job = (await jobs.get('job1'))!
    expect(job).toMatchObject({
      state: 'queued',
      serverLease: 3,
      cursor: 5,
      sent: 2,
      rejected: 1,
      nextSendAt: 9_000,
    })
    const rows = await recipients.where('jobId').equals('job1').sortBy('order')
    expect(rows.map((r) => [r.recipientId, r.state])).toEqual([
      ['1', 'sent'],
      ['2', 'sent'],
      ['3', 'rejected'],
      ['4', 'pending'],
      ['5', 'sending'],
    ])
    expect(rows[4]!.attemptAt).toBe(2_000)
  })
})

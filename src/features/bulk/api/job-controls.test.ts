/** Pausing or cancelling, from its card, a job the server is sending: it is taken back first. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '@lingui/core'
import { jobs } from '../../../device/bulk/records.ts'
import { resetDb, seedJob } from '../../../device/testing/bulk-fakes.ts'
import { cancelJob, pauseJob, ServerUnreachable } from './job-controls.ts'

const calls: { url: string; body: unknown }[] = []

/** The API: the take-back answers the job open on the device, two of its four recipients sent by the server. */
function serverAnswers(state = 'open') {
  calls.length = 0
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input)
    calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined })
    if (url.includes('/take-back'))
      return Response.json({
        lease: 4,
        sender: 'device',
        state,
        next_send_at: null,
        attachment_id: null,
        uncertain: [],
      })
    if (url.includes('/recipients'))
      return Response.json({
        data: [1, 2, 3, 4].map((n) => ({
          recipient_id: String(n),
          name: `Person ${n}`,
          conversation_id: `c${n}`,
          status: n <= 2 ? 'OK' : null,
          sent_as_branded: false,
        })),
        next: null,
      })
    return Response.json({})
  })
}

beforeEach(async () => {
  i18n.activate('en')
  await resetDb()
  await seedJob(4, { state: 'on_server', keepSending: true, serverLease: 3 })
})
afterEach(() => vi.restoreAllMocks())

describe('the controls of a job on the server', () => {
  it('pause: the job is taken back with what the server sent, and left paused', async () => {
    serverAnswers()
    await pauseJob('job1')
    expect(calls[0]!.url).toMatch(/\/api\/v2\/messages\/job1\/take-back$/)
    expect(await jobs.get('job1')).toMatchObject({ state: 'paused', sent: 2, serverLease: 4 })
  })

  it('cancel: the job is taken back, the rest skipped, and the server told it was cancelled', async () => {
    serverAnswers()
    await cancelJob('job1')
    expect(calls.map((c) => c.url.replace(/^.*\/messages\/job1/, ''))).toEqual([
      '/take-back',
      '/recipients?limit=1000',
      '/state',
    ])
    expect(calls[2]!.body).toMatchObject({ state: 'stopped', reason: 'cancelled' })
    expect(await jobs.get('job1')).toMatchObject({
      state: 'stopped',
      stopReason: 'cancelled',
      sent: 2,
      skipped: 2,
    })
  })

  it('cancel of a job the server finished meanwhile leaves it finished', async () => {
    serverAnswers('finished')
    await cancelJob('job1')
    expect(calls.some((c) => c.url.endsWith('/state'))).toBe(false)
    expect(await jobs.get('job1')).toMatchObject({ state: 'finished' })
  })

  it('with the server out of reach: nothing changes here, and the caller hears it', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'))
    await expect(pauseJob('job1')).rejects.toThrow(ServerUnreachable)
    await expect(cancelJob('job1')).rejects.toThrow(ServerUnreachable)
    expect(await jobs.get('job1')).toMatchObject({ state: 'on_server' })
  })
})

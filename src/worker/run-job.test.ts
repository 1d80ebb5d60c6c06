import { beforeEach, describe, expect, it } from 'vitest'
import { claimLease, jobs, outbox, recipients } from '../device/bulk/records.ts'
import { runJob } from './run-job.ts'
import { RECIPIENT_CALL_GAP_MS } from '../device/bulk/sync-recipients.ts'
import { FakeApi, FakeGraph, makeDeps, recordSending, resetDb, seedJob } from './testing/fakes.ts'
import { subscription } from '../core/testing/session.ts'
import { BRANDED_FOOTER } from '../core/bulk/allowance.ts'

beforeEach(resetDb)

async function run(graph: FakeGraph, api: FakeApi, deps = makeDeps(graph, api), id = 'job1') {
  const lease = (await claimLease(id))!
  return { outcome: await runJob(deps, id, lease), deps }
}

describe('running a bulk job', () => {
  it('sends each recipient exactly once, in order, touches each once and finishes', async () => {
    await seedJob(12)
    const graph = new FakeGraph()
    const api = new FakeApi()
    const { outcome, deps } = await run(graph, api)
    expect(outcome).toBe('finished')
    expect(graph.delivered.map((d) => d.recipientId)).toEqual(
      Array.from({ length: 12 }, (_, i) => String(i + 1)),
    )
    expect(api.touches.size).toBe(12)
    // Each touch went out once, and every acknowledged one has left the outbox.
    expect(api.touchCalls).toBe(12)
    expect(await outbox.count()).toBe(0)
    expect(api.sub.available_messages).toBe(988)
    const job = await jobs.get('job1')
    expect(job).toMatchObject({ state: 'finished', sent: 12, rejected: 0 })
    expect(api.states).toEqual([{ jobId: 'job1', state: 'finished', reason: undefined }])
    const last = deps.channel.messages.filter((m) => m.type === 'progress').at(-1)
    expect(last).toMatchObject({ state: 'finished', counts: { sent: 12, total: 12 } })
  })

  it('writes each recipient’s first name where the text takes it, and finds it when a send was uncertain', async () => {
    await seedJob(3, { text: 'Hi {first name}, new stock', nameFallback: 'friend' })
    await recordSending('job1', [0], Date.now())
    const graph = new FakeGraph()
    // The uncertain first send had arrived: the conversation shows it with the name filled in.
    graph.delivered.push({ id: 'm0', recipientId: '1', text: 'Hi Person, new stock', at: Date.now() })
    const { outcome } = await run(graph, new FakeApi())
    expect(outcome).toBe('finished')
    expect(graph.delivered.map((d) => [d.recipientId, d.text])).toEqual([
      ['1', 'Hi Person, new stock'],
      ['2', 'Hi Person, new stock'],
      ['3', 'Hi Person, new stock'],
    ])
  })

  it('uploads the image once and reuses its attachment id for every recipient, before the text', async () => {
    await seedJob(5, { imageUrl: 'https://x/img.png' })
    const graph = new FakeGraph()
    await run(graph, new FakeApi())
    expect(graph.uploads).toBe(1)
    const images = graph.delivered.filter((d) => d.attachmentId)
    expect(images.map((d) => d.attachmentId)).toEqual(Array(5).fill('att1'))
    expect(graph.delivered.map((d) => (d.attachmentId ? 'img' : 'txt'))).toEqual(
      Array(5).fill(['img', 'txt']).flat(),
    )
  })

  it('reconciles a send whose answer was lost and never sends it twice', async () => {
    await seedJob(4)
    const graph = new FakeGraph()
    graph.faults = [{ kind: 'transient' }, 'lost-response']
    // First attempt of recipient 1 fails cleanly (retried), the second goes out but its answer is lost.
    const api = new FakeApi()
    const { outcome } = await run(graph, api)
    expect(outcome).toBe('finished')
    for (const id of ['1', '2', '3', '4']) expect(graph.sentTo(id)).toBe(1)
    expect(api.touches.size).toBe(4)
  })

  it('after a crash in the middle of a send, looks at the conversation before retrying', async () => {
    const t0 = Date.now()
    await seedJob(3)
    const graph = new FakeGraph()
    // Recipient 1 was delivered, recipient 2 was marked sending but never left.
    graph.delivered.push({ recipientId: '1', text: 'Hello', at: t0 + 10 })
    await recordSending('job1', [0, 1], t0)
    expect(await recipients.get('job1:3')).toBeUndefined()
    const api = new FakeApi()
    await run(graph, api)
    expect(['1', '2', '3'].map((id) => graph.sentTo(id))).toEqual([1, 1, 1])
    expect(api.touches.size).toBe(3)
    expect(await jobs.get('job1')).toMatchObject({ sent: 3, state: 'finished' })
  })

  it('pauses for throttling and continues without losing anyone', async () => {
    await seedJob(3)
    const graph = new FakeGraph()
    graph.faults = [
      { kind: 'throttle', code: 613 },
      { kind: 'throttle', code: 4 },
    ]
    const { outcome, deps } = await run(graph, new FakeApi())
    expect(outcome).toBe('finished')
    expect(['1', '2', '3'].map((id) => graph.sentTo(id))).toEqual([1, 1, 1])
    expect(deps.channel.messages.some((m) => m.type === 'progress' && m.state === 'rate_limited')).toBe(true)
  })

  it('rejects a recipient the network refuses with the provider message and goes on', async () => {
    await seedJob(3)
    const graph = new FakeGraph()
    graph.faults = [{ kind: 'recipient_gone', code: 551 }]
    const api = new FakeApi()
    const { deps } = await run(graph, api)
    expect(await jobs.get('job1')).toMatchObject({ sent: 2, rejected: 1, state: 'finished' })
    expect(api.touches.get('job1:1')).toMatchObject({
      status: 'NG',
      error_data: { error_message: 'fault recipient_gone' },
    })
    expect(deps.channel.messages.find((m) => m.type === 'rejected')).toMatchObject({
      recipientName: 'Person 1',
      // The class lets each tab say it in its own language; the network's text goes beside it.
      kind: 'recipient_gone',
      error: 'fault recipient_gone',
    })
    expect(api.sub.available_messages).toBe(998)
  })

  it('retries transient errors a bounded number of times, then rejects', async () => {
    await seedJob(2)
    const graph = new FakeGraph()
    graph.faults = Array(4).fill({ kind: 'transient', code: 2 })
    await run(graph, new FakeApi())
    expect(await jobs.get('job1')).toMatchObject({ sent: 1, rejected: 1 })
    expect(graph.sentTo('1')).toBe(0)
  })

  it('does not count throttled or unanswered tries towards the bound of transient errors', async () => {
    await seedJob(2)
    const graph = new FakeGraph()
    // Recipient 1: throttled twice, a connection lost before the send, then one transient error.
    graph.faults = [
      { kind: 'throttle', code: 613 },
      { kind: 'throttle', code: 4 },
      { kind: 'network' },
      { kind: 'transient', code: 2 },
    ]
    const { outcome } = await run(graph, new FakeApi())
    expect(outcome).toBe('finished')
    expect(await jobs.get('job1')).toMatchObject({ sent: 2, rejected: 0 })
    expect(['1', '2'].map((id) => graph.sentTo(id))).toEqual([1, 1])
  })

  it('stops the job and says why when the page is blocked', async () => {
    await seedJob(3)
    const graph = new FakeGraph()
    graph.faults = [{ kind: 'page_blocked', code: 10, subcode: 1893063 }]
    const api = new FakeApi()
    const { outcome } = await run(graph, api)
    expect(outcome).toBe('stopped')
    expect((await jobs.get('job1'))?.stopReason).toMatch(/^page_blocked:/)
    expect(graph.delivered).toHaveLength(0)
    expect(api.states[0]).toMatchObject({ state: 'stopped' })
  })

  it('asks for a fresh page token on an auth error and resumes with it', async () => {
    await seedJob(2)
    const graph = new FakeGraph()
    graph.faults = [{ kind: 'auth', code: 190 }]
    const api = new FakeApi()
    const deps = makeDeps(graph, api)
    const unsubscribe = deps.channel.subscribe((m) => {
      if (m.type === 'need-token') setTimeout(() => deps.tokens.set('100', 'fresh'), 10)
    })
    const { outcome } = await run(graph, api, deps)
    unsubscribe()
    expect(outcome).toBe('finished')
    expect(deps.channel.messages.some((m) => m.type === 'progress' && m.state === 'needs_signin')).toBe(true)
    expect(graph.sentTo('1') + graph.sentTo('2')).toBe(2)
  })

  it('stops and marks the rest skipped when the allowance runs out without branded messages', async () => {
    await seedJob(5)
    const graph = new FakeGraph()
    const api = new FakeApi(subscription(2))
    const { outcome } = await run(graph, api)
    expect(outcome).toBe('stopped')
    expect(graph.delivered).toHaveLength(2)
    expect(await jobs.get('job1')).toMatchObject({ sent: 2, skipped: 3, stopReason: 'no_messages' })
    expect(api.sub.available_messages).toBe(0)
  })

  it('adds the branded footer once the allowance runs out when branded messages are authorised', async () => {
    await seedJob(4, { brandedAuthorised: true })
    const graph = new FakeGraph()
    const api = new FakeApi(subscription(2, true))
    await run(graph, api)
    expect(graph.delivered.map((d) => d.text)).toEqual([
      'Hello',
      'Hello',
      `Hello${BRANDED_FOOTER}`,
      `Hello${BRANDED_FOOTER}`,
    ])
    expect([...api.touches.values()].map((t) => t.sent_as_branded)).toEqual([false, false, true, true])
  })

  it('footers those beyond the allowance planned at the start', async () => {
    await seedJob(3, { brandedFrom: 1 })
    const graph = new FakeGraph()
    await run(graph, new FakeApi())
    expect(graph.delivered.map((d) => d.text?.endsWith(BRANDED_FOOTER))).toEqual([false, true, true])
  })

  it('never fires a send once another holder took the lease', async () => {
    await seedJob(5)
    const graph = new FakeGraph()
    const api = new FakeApi()
    const deps = makeDeps(graph, api)
    const lease = (await claimLease('job1'))!
    graph.onSend = () => {
      if (graph.delivered.length === 1) void claimLease('job1')
    }
    const outcome = await runJob(deps, 'job1', lease)
    expect(outcome).toBe('lost')
    expect(graph.delivered.length).toBeLessThanOrEqual(2)
    expect(new Set(graph.delivered.map((d) => d.recipientId)).size).toBe(graph.delivered.length)
  })

  it('waits out a persisted pacing end time after a reload', async () => {
    const until = Date.now() + 150
    await seedJob(1, { nextSendAt: until })
    const graph = new FakeGraph()
    await run(
      graph,
      new FakeApi(),
      makeDeps(graph, new FakeApi(), { sleep: (ms) => new Promise((r) => setTimeout(r, ms)) }),
    )
    expect(graph.delivered[0]!.at).toBeGreaterThanOrEqual(until)
  })

  it('gives the server the recipient list first, one paced call per step, resuming after a failed call', async () => {
    await seedJob(17_000, { recipientsSynced: false })
    const graph = new FakeGraph()
    const api = new FakeApi()
    // The server holds the job: once it has the list, the run ends there without a send.
    api.leases.set('job1', { epoch: 1, sender: 'server' })
    api.recipientFaults = [undefined, undefined, { status: 503 }]
    let t = 1_000_000
    const times: number[] = []
    const put = api.putRecipients.bind(api)
    api.putRecipients = (jobId, list) => {
      times.push(t)
      return put(jobId, list)
    }
    const deps = makeDeps(graph, api, {
      now: () => t,
      sleep: async (ms) => {
        t += ms
      },
    })
    const { outcome } = await run(graph, api, deps)
    expect([outcome, (await jobs.get('job1'))?.state]).toEqual(['paused', 'on_server'])
    expect(graph.delivered).toEqual([])
    // Four calls reached the server, each part once and in order; the failed one was tried again.
    expect(api.recipientCalls.map((c) => [c.ids[0], c.ids.length])).toEqual([
      ['1', 5_000],
      ['5001', 5_000],
      ['10001', 5_000],
      ['15001', 2_000],
    ])
    expect(times).toHaveLength(5)
    for (let i = 1; i < times.length; i++)
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(RECIPIENT_CALL_GAP_MS)
  })
})

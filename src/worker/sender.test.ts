import { beforeEach, describe, expect, it } from 'vitest'
import { jobs } from '../device/bulk/records.ts'
import { startSender } from './sender.ts'
import { FakeApi, FakeGraph, makeDeps, resetDb, seedJob } from './testing/fakes.ts'

beforeEach(resetDb)

const until = async (check: () => Promise<boolean> | boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe('the sender of a browser profile', () => {
  it('lets only one holder send, and a second one takes over when the first goes away', async () => {
    const lock = `bulk-sender-test-${Math.random()}`
    await seedJob(30)
    const graph = new FakeGraph()
    const api = new FakeApi()
    const slow = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 20)))
    const first = new AbortController()
    const second = new AbortController()
    // Waits of about 20 ms between sends, so the job is still running when the first holder goes away.
    const depsA = makeDeps(graph, api, { sleep: slow, pacingScale: 0.02 })
    const depsB = makeDeps(graph, api, { sleep: slow, pacingScale: 0.02 })
    const a = startSender(depsA, first.signal, lock)
    await until(() => graph.delivered.length >= 3)
    const b = startSender(depsB, second.signal, lock)
    await new Promise((r) => setTimeout(r, 100))
    // B is queued on the lock: it has posted nothing yet.
    expect(depsB.channel.messages.some((m) => m.type === 'lock')).toBe(false)
    // A's tab goes away mid-job: its loop is abandoned and its lock released.
    first.abort()
    await until(async () => (await jobs.get('job1'))?.state === 'finished')
    second.abort()
    await Promise.allSettled([a.done, b.done])
    expect(depsB.channel.messages.some((m) => m.type === 'lock')).toBe(true)
    const ids = graph.delivered.map((d) => d.recipientId)
    expect(new Set(ids).size).toBe(30)
    expect(ids).toHaveLength(30)
    expect(api.touches.size).toBe(30)
  })

  it('picks up a job added while it was idle', async () => {
    const lock = `bulk-sender-test-${Math.random()}`
    const graph = new FakeGraph()
    const api = new FakeApi()
    const deps = makeDeps(graph, api)
    const stop = new AbortController()
    const s = startSender(deps, stop.signal, lock)
    await new Promise((r) => setTimeout(r, 50))
    await seedJob(3)
    deps.wake()
    await until(async () => (await jobs.get('job1'))?.state === 'finished')
    stop.abort()
    await s.done
    expect(graph.delivered).toHaveLength(3)
  })
})

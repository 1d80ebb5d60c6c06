import { beforeEach, describe, expect, it, vi } from 'vitest'
import { TOKEN_RETRY_BASE_MS } from '../core/constants/limits.ts'
import { claimLease, jobs } from '../device/bulk/records.ts'
import { runJob } from './run-job.ts'
import { FakeApi, FakeGraph, makeDeps, PAGE, resetDb, seedJob } from './testing/fakes.ts'
import { NO_PAGE_TOKEN } from '../device/bulk/protocol.ts'

beforeEach(resetDb)

describe('a job without its page token', () => {
  it('asks once, waits out its backoff however often it is woken, and goes on when a token arrives', async () => {
    await seedJob(2)
    const graph = new FakeGraph()
    // The real clock, moved on by hand past each backoff (the test itself lasts far less than one).
    let ahead = 0
    // random 1: each backoff is its whole step (5 s, then 10 s).
    const deps = makeDeps(graph, new FakeApi(), { now: () => Date.now() + ahead, random: () => 1 })
    deps.tokens.delete(PAGE)
    // Every tab answers at once that the accounts list has no token for the page.
    deps.channel.subscribe((m) => {
      if (m.type !== 'need-token') return
      deps.refused.add(PAGE)
      deps.wake()
    })
    const asks = () => deps.channel.messages.filter((m) => m.type === 'need-token').length
    // Tokens of other pages, controls, `online`: the sender is woken all the time.
    const storm = setInterval(() => deps.wake(), 1)
    const outcome = runJob(deps, 'job1', (await claimLease('job1'))!)
    try {
      await vi.waitFor(async () => expect((await jobs.get('job1'))?.state).toBe('needs_signin'))
      await new Promise((r) => setTimeout(r, 300))
      expect(asks()).toBe(1)
      expect((await jobs.get('job1'))?.stopReason).toBe(NO_PAGE_TOKEN)
      ahead += TOKEN_RETRY_BASE_MS
      await vi.waitFor(() => expect(asks()).toBe(2))
      ahead += TOKEN_RETRY_BASE_MS
      await new Promise((r) => setTimeout(r, 200))
      expect(asks()).toBe(2)
      ahead += TOKEN_RETRY_BASE_MS
      await vi.waitFor(() => expect(asks()).toBe(3))
      expect(graph.delivered).toHaveLength(0)
    } finally {
      clearInterval(storm)
    }
    deps.refused.delete(PAGE)
    deps.tokens.set(PAGE, 'fresh')
    deps.wake()
    expect(await outcome).toBe('finished')
    expect(graph.sentTo('1') + graph.sentTo('2')).toBe(2)
    expect(asks()).toBe(3)
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { CONVERSATIONS_CALL_INTERVAL_MS, paceConversationsCall } from './conversations-pacer.ts'

afterEach(() => {
  vi.useRealTimers()
})

describe('pacing the conversations endpoint', () => {
  it('lets one call of a page start every 500 ms at most (2 calls per second), pages apart', async () => {
    vi.useFakeTimers()
    const started: string[] = []
    const at = () => Date.now()
    const t0 = at()
    const call = (page: string, label: string) =>
      paceConversationsCall(page).then(() => started.push(`${label}@${at() - t0}`))
    void call('pacer-a', 'a1')
    void call('pacer-a', 'a2')
    void call('pacer-a', 'a3')
    void call('pacer-b', 'b1')
    await vi.advanceTimersByTimeAsync(2 * CONVERSATIONS_CALL_INTERVAL_MS)
    expect(started).toEqual(['a1@0', 'b1@0', 'a2@500', 'a3@1000'])
  })

  it('gives the slot back when the waiting caller goes away', async () => {
    vi.useFakeTimers()
    const t0 = Date.now()
    await paceConversationsCall('pacer-c')
    const controller = new AbortController()
    const waiting = paceConversationsCall('pacer-c', controller.signal)
    controller.abort()
    await expect(waiting).rejects.toThrow()
    let startedAt = -1
    void paceConversationsCall('pacer-c').then(() => (startedAt = Date.now() - t0))
    await vi.advanceTimersByTimeAsync(CONVERSATIONS_CALL_INTERVAL_MS)
    expect(startedAt).toBe(CONVERSATIONS_CALL_INTERVAL_MS)
  })
})

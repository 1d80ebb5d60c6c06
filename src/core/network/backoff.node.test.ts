import { describe, expect, it } from 'vitest'
import { backoff, retryGate } from './backoff.ts'

function gateWithClock() {
  let now = 0
  let calls = 0
  let answer: string | undefined
  const gate = retryGate<string | undefined>({
    base: 5_000,
    max: 300_000,
    failed: (v) => !v,
    now: () => now,
    random: () => 1,
  })
  const run = (key = 'page') =>
    gate.run(key, async () => {
      calls++
      return answer
    })
  return {
    gate,
    run,
    calls: () => calls,
    answer: (v: string | undefined) => (answer = v),
    advance: (ms: number) => (now += ms),
  }
}

describe('backoff', () => {
  it('doubles from the base up to the cap, jittered between half and the whole step', () => {
    expect(backoff(1, 5_000, 300_000, () => 0)).toBe(2_500)
    expect(backoff(2, 5_000, 300_000, () => 1)).toBe(10_000)
    expect(backoff(30, 5_000, 300_000, () => 1)).toBe(300_000)
  })
})

describe('the retry gate', () => {
  it('shares one call between concurrent askers', async () => {
    const g = gateWithClock()
    g.answer('t')
    const answers = await Promise.all([g.run(), g.run(), g.run()])
    expect(answers).toEqual(['t', 't', 't'])
    expect(g.calls()).toBe(1)
  })

  it('after an answer without a value, calls again only once the backoff has elapsed, doubling to the cap', async () => {
    const g = gateWithClock()
    expect(await g.run()).toBeUndefined()
    for (let i = 0; i < 100; i++) await g.run()
    expect(g.calls()).toBe(1)
    g.advance(5_000)
    await g.run()
    expect(g.calls()).toBe(2)
    g.advance(9_999)
    await g.run()
    expect(g.calls()).toBe(2)
    g.advance(1)
    await g.run()
    expect(g.calls()).toBe(3)
    for (let i = 0; i < 20; i++) {
      g.advance(300_000)
      await g.run()
    }
    expect(g.calls()).toBe(23)
    expect(g.gate.retryAt('page')).toBe(g.advance(0) + 300_000)
  })

  it('backs off after a failed call too, giving the same error meanwhile', async () => {
    let calls = 0
    const gate = retryGate<string>({ base: 1_000, max: 10_000, failed: () => false, now: () => 0 })
    const call = async () => {
      calls++
      throw new Error('offline')
    }
    await expect(gate.run('p', call)).rejects.toThrow('offline')
    await expect(gate.run('p', call)).rejects.toThrow('offline')
    expect(calls).toBe(1)
  })

  it('keeps keys apart, clears on success and calls at once after a reset', async () => {
    const g = gateWithClock()
    await g.run('a')
    await g.run('b')
    expect(g.calls()).toBe(2)
    await g.run('a')
    expect(g.calls()).toBe(2)
    g.gate.reset()
    g.answer('t')
    expect(await g.run('a')).toBe('t')
    expect(g.calls()).toBe(3)
    expect(g.gate.retryAt('a')).toBe(0)
    expect(await g.run('a')).toBe('t')
    expect(g.calls()).toBe(4)
  })
})

import { describe, expect, it } from 'vitest'
import { backoff, pacingDelay, remainingWait, sendDurationMs } from './pacer.ts'

describe('the pacer', () => {
  it('waits between 800 and 1500 ms at full scale', () => {
    expect(pacingDelay(() => 0)).toBe(800)
    expect(pacingDelay(() => 0.999999)).toBe(1500)
    for (let i = 0; i < 200; i++) {
      const d = pacingDelay(Math.random)
      expect(d).toBeGreaterThanOrEqual(800)
      expect(d).toBeLessThanOrEqual(1500)
    }
  })

  it('scales the pacing for sandbox tests', () => {
    expect(pacingDelay(() => 0, 0.02)).toBe(16)
  })

  it('backs off exponentially with jitter, capped', () => {
    expect(backoff(1, 1000, 60_000, () => 0)).toBe(500)
    expect(backoff(3, 1000, 60_000, () => 1)).toBe(4000)
    expect(backoff(20, 1000, 60_000, () => 1)).toBe(60_000)
  })

  it('never waits a negative time for a persisted end in the past', () => {
    expect(remainingWait(100, 200)).toBe(0)
    expect(remainingWait(300, 200)).toBe(100)
  })
})

describe('how long a send takes at the mandated pace', () => {
  it('takes about 6 minutes for 299 recipients', () => {
    expect(Math.round(sendDurationMs(299) / 60_000)).toBe(6)
    expect(sendDurationMs(0)).toBe(0)
  })
})

import { describe, expect, it } from 'vitest'
import { advanceWatermarks, receiptState } from './receipts.ts'

describe('receipts with watermark semantics', () => {
  it('count every message at or before the watermark, and none after it', () => {
    const marks = { delivered: 2_000, read: 1_000 }
    expect(receiptState(500, marks)).toBe('read')
    expect(receiptState(1_000, marks)).toBe('read')
    expect(receiptState(1_001, marks)).toBe('delivered')
    expect(receiptState(2_000, marks)).toBe('delivered')
    expect(receiptState(2_001, marks)).toBe('sent')
    expect(receiptState(1, undefined)).toBe('sent')
  })

  it('treat a read message as delivered even when no delivery event came', () => {
    expect(receiptState(900, { read: 1_000 })).toBe('read')
    expect(advanceWatermarks(undefined, { read: 1_000 })).toEqual({ delivered: 1_000, read: 1_000 })
  })

  it('only move forward: a late or replayed older watermark changes nothing', () => {
    const now = advanceWatermarks({ delivered: 5_000, read: 4_000 }, { delivered: 3_000 })
    expect(now).toEqual({ delivered: 5_000, read: 4_000 })
    expect(advanceWatermarks(now, { read: 2_000 })).toEqual(now)
    expect(advanceWatermarks(now, { read: 6_000 })).toEqual({ delivered: 6_000, read: 6_000 })
  })
})

import { describe, expect, it } from 'vitest'
import { planAudience, sendMode } from './allowance.ts'
import { subscription } from '../testing/session.ts'

describe('the allowance rules', () => {
  it('refuses sending with nothing available unless unlimited and not blocked', () => {
    expect(planAudience(10, subscription(0)).refused).toBe(true)
    expect(planAudience(10, subscription(0, true)).refused).toBe(true)
    expect(planAudience(10, { ...subscription(0), is_unlimited: true }).refused).toBe(false)
    expect(
      planAudience(10, { ...subscription(0), is_unlimited: true, unlimited_blocked: true }).refused,
    ).toBe(true)
  })

  it('sends only to the first N when fewer are available and branded messages are not authorised', () => {
    expect(planAudience(10, subscription(4))).toEqual({
      count: 4,
      brandedFrom: -1,
      refused: false,
      truncated: true,
    })
  })

  it('sends to all, branding those beyond the allowance, when branded messages are authorised', () => {
    expect(planAudience(10, subscription(4, true))).toEqual({
      count: 10,
      brandedFrom: 4,
      refused: false,
      truncated: false,
    })
    expect(planAudience(3, subscription(4, true)).brandedFrom).toBe(-1)
  })

  it('brands or stops once the allowance reaches zero during a batch', () => {
    expect(sendMode(5, -1, subscription(0), false)).toBe('stop')
    expect(sendMode(5, -1, subscription(0), true)).toBe('branded')
    expect(sendMode(5, -1, subscription(3), false)).toBe('normal')
    expect(sendMode(5, 4, subscription(3), false)).toBe('branded')
  })
})

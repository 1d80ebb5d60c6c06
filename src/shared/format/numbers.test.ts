import { describe, expect, it } from 'vitest'
import { formatLongDate } from './dates.ts'
import { formatNumber } from './numbers.ts'

describe('formats', () => {
  it('writes numbers in the Mexican Spanish style with optional decimals', () => {
    expect(formatNumber(48210)).toBe('48,210')
    expect(formatNumber(1500000)).toBe('1,500,000')
    expect(formatNumber(7.5)).toBe('7.5')
  })
  it('writes dates as month name, day, year in the given language', () => {
    expect(formatLongDate('2024-01-05T12:00:00Z', 'en')).toBe('January 5, 2024')
    expect(formatLongDate('2024-01-05T12:00:00Z', 'es')).toBe('5 de enero de 2024')
  })
})

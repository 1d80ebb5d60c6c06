import { describe, expect, it } from 'vitest'
import { formatLongDate } from './dates.ts'
import { formatNumber, formatSize, formatUsd } from './numbers.ts'

describe('formats', () => {
  it('writes Spanish numbers in the Mexican style with optional decimals', () => {
    expect(formatNumber(48210, 'es')).toBe('48,210')
    expect(formatNumber(1500000, 'es')).toBe('1,500,000')
    expect(formatNumber(7.5, 'es')).toBe('7.5')
    expect(formatUsd(14.99, 'es')).toBe('$14.99')
  })

  it('writes every other language in its own convention', () => {
    expect(formatNumber(1500000.5, 'en')).toBe('1,500,000.5')
    expect(formatNumber(1500000.5, 'id')).toBe('1.500.000,5')
    expect(formatNumber(1500000.5, 'fil')).toBe('1,500,000.5')
    expect(formatNumber(1500000.5, 'ur')).toBe('1,500,000.5')
    expect(formatNumber(1500000.5, 'km')).toBe('1,500,000.5')
    // Bengali digits and Indian grouping (lakh, crore).
    expect(formatNumber(1500000.5, 'bn')).toBe('১৫,০০,০০০.৫')
    expect(formatUsd(14.99, 'en')).toBe('$14.99')
    expect(formatUsd(14.99, 'id')).toBe('$14,99')
  })

  it('writes a file size in kilobytes under a megabyte and megabytes above, in the language', () => {
    expect(formatSize(570_400, 'en')).toBe('570 kB')
    expect(formatSize(120, 'en')).toBe('1 kB')
    expect(formatSize(1_540_000, 'id')).toBe('1,5 MB')
    expect(formatSize(570_400, 'bn')).toBe('৫৭০ kB')
  })

  it('takes the document language when none is passed', () => {
    const before = document.documentElement.lang
    try {
      document.documentElement.lang = 'id'
      expect(formatNumber(48210)).toBe('48.210')
      document.documentElement.lang = 'es'
      expect(formatNumber(48210)).toBe('48,210')
    } finally {
      document.documentElement.lang = before
    }
  })

  it('writes dates as month name, day, year in the given language', () => {
    expect(formatLongDate('2024-01-05T12:00:00Z', 'en')).toBe('January 5, 2024')
    expect(formatLongDate('2024-01-05T12:00:00Z', 'es')).toBe('5 de enero de 2024')
  })
})

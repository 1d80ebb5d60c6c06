import { describe, expect, it } from 'vitest'
import { locales } from '../constants/locales.ts'
import { intlLocale, prepareNumberData, prepareRelativeTimeData } from './intl-locale.ts'
import { formatNumber } from './numbers.ts'
import { formatRelativeTime } from './dates.ts'

describe('intlLocale', () => {
  it('writes Spanish in the Mexican style and every other language as itself', () => {
    expect(intlLocale('es')).toBe('es-MX')
    expect(intlLocale('bn')).toBe('bn')
    expect(intlLocale('ur')).toBe('ur')
  })

  it('prepares the number data of every interface language without changing what is written', () => {
    for (const { code: locale } of locales) {
      const before = formatNumber(1500000.5, locale)
      prepareNumberData(locale)
      expect(formatNumber(1500000.5, locale)).toBe(before)
    }
  })

  it('prepares the relative-time data of every interface language without changing what is written', () => {
    const now = Date.UTC(2026, 10, 28, 12)
    for (const { code: locale } of locales) {
      const before = formatRelativeTime(now - 3 * 3_600_000, locale, now)
      prepareRelativeTimeData(locale)
      expect(formatRelativeTime(now - 3 * 3_600_000, locale, now)).toBe(before)
    }
  })
})

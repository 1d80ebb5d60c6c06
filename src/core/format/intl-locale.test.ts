import { describe, expect, it } from 'vitest'
import { locales } from '../constants/locales.ts'
import { intlLocale, prepareNumberData } from './intl-locale.ts'
import { formatNumber } from './numbers.ts'

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
})

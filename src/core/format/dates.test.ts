import { describe, expect, it } from 'vitest'
import { formatDateTime, formatLongDate, formatRelativeTime } from './dates.ts'

describe('dates', () => {
  const at = Date.UTC(2024, 0, 5, 15, 4)

  it('writes a date and time in the style and language asked for, each language on its own', () => {
    expect(formatDateTime(at, 'en', 'short')).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'short', timeStyle: 'short' }).format(at),
    )
    expect(formatDateTime(at, 'es', 'medium')).toBe(
      new Intl.DateTimeFormat('es', { dateStyle: 'medium', timeStyle: 'short' }).format(at),
    )
    expect(formatDateTime(at, 'en', 'medium')).not.toBe(formatDateTime(at, 'en', 'short'))
    expect(formatDateTime(Number.NaN, 'en', 'short')).toBe('')
  })

  it('writes relative times in the language asked for', () => {
    const now = at + 3 * 3600 * 1000
    expect(formatRelativeTime(at, 'en', now)).toBe('3 hours ago')
    expect(formatRelativeTime(at, 'es', now)).toBe('hace 3 horas')
    expect(formatRelativeTime(now - 86_400_000, 'en', now)).toBe('yesterday')
  })

  it('writes the shortest words of the language when asked for narrow ones', () => {
    const now = at + 19 * 60 * 1000
    expect(formatRelativeTime(at, 'en', now, 'narrow')).toBe('19m ago')
    expect(formatRelativeTime(at, 'es', now, 'narrow')).toBe('hace 19 min')
    expect(formatRelativeTime(at, 'en', now)).toBe('19 minutes ago')
  })

  it('says a moment just ahead of the device clock is now, never in the future', () => {
    const now = Date.UTC(2024, 0, 5, 18, 0)
    expect(formatRelativeTime(now + 14_000, 'en', now)).toBe('now')
    expect(formatRelativeTime(now + 14_000, 'es', now)).toBe('ahora')
    expect(formatRelativeTime(now - 14_000, 'en', now)).toBe('14 seconds ago')
  })

  it('builds one formatter per language and style, however many rows it writes', () => {
    const Original = Intl.RelativeTimeFormat
    const intl = Intl as { RelativeTimeFormat: typeof Original }
    let built = 0
    intl.RelativeTimeFormat = new Proxy(Original, {
      construct(target, args: ConstructorParameters<typeof Original>) {
        built += 1
        return Reflect.construct(target, args) as object
      },
    })
    try {
      for (let i = 0; i < 50; i++) formatRelativeTime(at - i * 60_000, 'id', at)
    } finally {
      intl.RelativeTimeFormat = Original
    }
    expect(built).toBe(1)
    expect(formatLongDate(at, 'en')).toBe('January 5, 2024')
  })

  it('writes Khmer relative times and dates in Khmer, even where the browser has no Khmer data', () => {
    const now = Date.UTC(2024, 0, 5, 18, 0)
    expect(formatRelativeTime(now - 30_000, 'km', now)).toBe('30 វិនាទី\u200bមុន')
    expect(formatRelativeTime(now - 60_000, 'km', now)).toBe('1 នាទី\u200bមុន')
    expect(formatRelativeTime(now - 26 * 60_000, 'km', now)).toBe('26 នាទី\u200bមុន')
    expect(formatRelativeTime(now - 3 * 3_600_000, 'km', now)).toBe('3 ម៉ោង\u200bមុន')
    expect(formatRelativeTime(now - 86_400_000, 'km', now)).toBe('ម្សិលមិញ')
    expect(formatRelativeTime(now + 5_000, 'km', now)).toBe('ឥឡូវ')
    for (const text of [formatRelativeTime(now - 26 * 60_000, 'km', now), formatLongDate(now, 'km')])
      expect(text).not.toMatch(/[A-Za-z]|^-/)
    expect(formatLongDate(now, 'km')).toBe('5 មករា 2024')
    expect(formatDateTime(Date.UTC(2024, 0, 5, 15, 4), 'km', 'medium')).toMatch(/^5 មករា 2024, \d{1,2}:04 (AM|PM)$/)
    expect(formatDateTime(Date.UTC(2024, 0, 5, 15, 4), 'km', 'short')).toMatch(/^5\/1\/24, \d{1,2}:04 (AM|PM)$/)
  })
})

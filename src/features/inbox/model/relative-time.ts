/** "5 minutes ago" in the user's language, through Intl.RelativeTimeFormat. */

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]

const formatters = new Map<string, Intl.RelativeTimeFormat>()

export function formatRelativeTime(thenMs: number, nowMs: number, locale: string): string {
  let rtf = formatters.get(locale)
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' })
    formatters.set(locale, rtf)
  }
  const seconds = Math.round((thenMs - nowMs) / 1000)
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === 'second') return rtf.format(Math.trunc(seconds / size), unit)
  }
  return ''
}

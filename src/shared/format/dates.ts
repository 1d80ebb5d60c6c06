/**
 * Dates in the user's language. Building an Intl formatter costs far more than using one (a list of a
 * hundred rows would build a hundred), so each locale and style builds its formatter once.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>()

function cached<F extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(key: string, build: () => F): F {
  let formatter = formatters.get(key) as F | undefined
  if (!formatter) {
    formatter = build()
    formatters.set(key, formatter)
  }
  return formatter
}

type DateTimeStyle = 'short' | 'medium'

/** "1/5/24, 3:04 PM" (short) or "Jan 5, 2024, 3:04 PM" (medium) in the user's language. */
export function formatDateTime(value: number | Date, locale: string, style: DateTimeStyle): string {
  const time = value instanceof Date ? value.getTime() : value
  if (Number.isNaN(time)) return ''
  return cached(
    `datetime:${style}:${locale}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: style, timeStyle: 'short' }),
  ).format(time)
}

/** "January 5, 2024" style (month name, day, year). */
export function formatLongDate(value: string | number | Date, locale: string): string {
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  return cached(
    `long:${locale}`,
    () => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric' }),
  ).format(date)
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]

/**
 * "3 hours ago" in the user's language. It speaks of past moments only: a time ahead of this device's clock
 * (the network's clock runs a few seconds ahead of the phone's) reads "now", never "in 14 seconds".
 */
export function formatRelativeTime(
  value: string | number | Date,
  locale: string,
  now: number = Date.now(),
): string {
  const time = value instanceof Date ? value.getTime() : new Date(value).getTime()
  if (Number.isNaN(time)) return ''
  const seconds = Math.min(0, Math.round((time - now) / 1000))
  const rtf = cached(`relative:${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }))
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return rtf.format(Math.round(seconds / size), unit)
  }
  return ''
}

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
type Unit = 'year' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second'

/**
 * Khmer as CLDR writes it, for browsers that ship no Khmer data (Chromium's Intl answers Khmer requests in
 * its own default language, or in the root locale's "-30 s"). Every other language of the app is in them.
 */
const KHMER_MONTHS = [
  'មករា',
  'កុម្ភៈ',
  'មីនា',
  'មេសា',
  'ឧសភា',
  'មិថុនា',
  'កក្កដា',
  'សីហា',
  'កញ្ញា',
  'តុលា',
  'វិច្ឆិកា',
  'ធ្នូ',
]
/** "{0} … ago" per unit, and the words for one unit back (CLDR `km`, with its zero-width spaces). */
const KHMER_AGO: Record<Unit, [string, string]> = {
  second: ['{0} វិនាទី\u200bមុន', '1 វិនាទី\u200bមុន'],
  minute: ['{0} នាទី\u200bមុន', '1 នាទី\u200bមុន'],
  hour: ['{0} ម៉ោង\u200bមុន', '1 ម៉ោង\u200bមុន'],
  day: ['{0} ថ្ងៃ\u200bមុន', 'ម្សិលមិញ'],
  week: ['{0} សប្ដាហ៍\u200bមុន', 'សប្ដាហ៍\u200bមុន'],
  month: ['{0} ខែមុន', 'ខែ\u200bមុន'],
  year: ['{0} ឆ្នាំ\u200bមុន', 'ឆ្នាំ\u200bមុន'],
}
const KHMER_NOW = 'ឥឡូវ'

const supported = new Map<string, boolean>()

/** Whether this browser's Intl really speaks `locale` (not its default language in its place). */
function speaks(locale: string): boolean {
  const key = `speaks:${locale}`
  let known = supported.get(key)
  if (known === undefined) {
    known = Intl.DateTimeFormat.supportedLocalesOf(locale).length > 0
    supported.set(key, known)
  }
  return known
}

function isKhmer(locale: string): boolean {
  return locale === 'km' || locale.startsWith('km-')
}

/** A Khmer date from its numbers ("5 មករា 2024", short "5/1/24"), in this device's time zone. */
function khmerDate(time: number, style: 'short' | 'medium' | 'long'): string {
  const d = new Date(time)
  const [day, month, year] = [d.getDate(), d.getMonth(), d.getFullYear()]
  if (style === 'short') return `${day}/${month + 1}/${String(year % 100).padStart(2, '0')}`
  return `${day} ${KHMER_MONTHS[month]} ${year}`
}

/** "1/5/24, 3:04 PM" (short) or "Jan 5, 2024, 3:04 PM" (medium) in the user's language. */
export function formatDateTime(value: number | Date, locale: string, style: DateTimeStyle): string {
  const time = value instanceof Date ? value.getTime() : value
  if (Number.isNaN(time)) return ''
  if (isKhmer(locale) && !speaks(locale)) {
    // CLDR's Khmer time is the 12-hour clock with AM/PM, as in English.
    const clock = cached('time:en', () => new Intl.DateTimeFormat('en', { timeStyle: 'short' })).format(time)
    return `${khmerDate(time, style)}, ${clock}`
  }
  return cached(
    `datetime:${style}:${locale}`,
    () => new Intl.DateTimeFormat(locale, { dateStyle: style, timeStyle: 'short' }),
  ).format(time)
}

/** "January 5, 2024" style (month name, day, year). */
export function formatLongDate(value: string | number | Date, locale: string): string {
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  if (isKhmer(locale) && !speaks(locale)) return khmerDate(date.getTime(), 'long')
  return cached(
    `long:${locale}`,
    () => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric' }),
  ).format(date)
}

const UNITS: [Unit, number][] = [
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
 * `narrow` is the language's shortest words ("19 min. ago"), for a list row's corner.
 */
export function formatRelativeTime(
  value: string | number | Date,
  locale: string,
  now: number = Date.now(),
  style: Intl.RelativeTimeFormatStyle = 'long',
): string {
  const time = value instanceof Date ? value.getTime() : new Date(value).getTime()
  if (Number.isNaN(time)) return ''
  const seconds = Math.min(0, Math.round((time - now) / 1000))
  if (isKhmer(locale) && !speaks(locale)) return khmerRelative(seconds)
  const rtf = cached(`relative:${style}:${locale}`, () =>
    new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style }),
  )
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return rtf.format(Math.round(seconds / size), unit)
  }
  return ''
}

function khmerRelative(seconds: number): string {
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) < size && unit !== 'second') continue
    const count = Math.round(-seconds / size)
    if (count === 0) return KHMER_NOW
    const [many, one] = KHMER_AGO[unit]
    return count === 1 ? one : many.replace('{0}', String(count))
  }
  return ''
}

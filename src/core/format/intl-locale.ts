/** The Intl locale of an interface language: Spanish is written in the Mexican style, every other as itself. */
const INTL_LOCALE: Record<string, string> = { es: 'es-MX' }

export function intlLocale(locale: string): string {
  return INTL_LOCALE[locale] ?? locale
}

/**
 * Loads the language's number data ahead of its first use: a browser's first number format of a language
 * takes tens of milliseconds on a phone. Run while the browser is idle (waiting for the signed-in app's code),
 * it is not part of the first signed-in screen's render; the browser keeps the data for the formats made later.
 */
export function prepareNumberData(locale: string): void {
  new Intl.NumberFormat(intlLocale(locale), { maximumFractionDigits: 2 }).format(1)
}

/**
 * Loads the language's relative-time data ahead of the inbox list's first row ("3 hours ago"), for the same
 * reason: the list's first render would otherwise load it. Khmer rows are written from the app's own words
 * where the browser has no Khmer data (src/core/format/dates.ts); loading the data costs nothing there.
 */
export function prepareRelativeTimeData(locale: string): void {
  new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-1, 'hour')
}

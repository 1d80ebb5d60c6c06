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

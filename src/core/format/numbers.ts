/**
 * Numbers in the interface language's own convention, through one formatter per language:
 * - Spanish is written in the Mexican style (`es-MX`: 1,500,000.5), the product's Spanish audience;
 * - every other language takes its CLDR default through Intl: English, Filipino and Urdu 1,500,000.5,
 *   Indonesian 1.500.000,5, Khmer 1,500,000.5;
 * - digits: Bengali is written with Bengali digits and Indian grouping (১৫,০০,০০০.৫), CLDR's default and what
 *   Bangladeshi readers see in print and on their phones; Khmer keeps Latin digits (CLDR's default for `km`;
 *   Khmer digits are its "native" alternative, used in formal print but not for counts on screens); Urdu keeps
 *   Latin digits (CLDR's default for `ur`; Extended Arabic-Indic digits are `ur-IN`'s).
 * Inputs (numbers typed in a field) stay in Latin digits; only what is shown goes through here.
 */
import { intlLocale } from './intl-locale.ts'

const formats = new Map<string, Intl.NumberFormat>()

function numberFormat(locale: string, currency: boolean): Intl.NumberFormat {
  const key = `${currency ? 'usd' : 'n'}:${locale}`
  let format = formats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(
      intlLocale(locale),
      currency
        ? { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol', maximumFractionDigits: 2 }
        : { maximumFractionDigits: 2 },
    )
    formats.set(key, format)
  }
  return format
}

/**
 * The interface language when none is passed: the document's (`<html lang>`, set when a locale is activated),
 * English outside a browser.
 */
function currentLocale(): string {
  return (typeof document !== 'undefined' && document.documentElement.lang) || 'en'
}

/** A count or amount with optional decimals in the language's convention. */
export function formatNumber(value: number, locale: string = currentLocale()): string {
  return numberFormat(locale, false).format(value)
}

/** US dollars in the language's convention ($14.99 in English, 14,99 US$ style where CLDR says so). */
export function formatUsd(value: number, locale: string = currentLocale()): string {
  return numberFormat(locale, true).format(value)
}

/** A file's size in the language's convention: kilobytes under a megabyte (570 kB), megabytes with one decimal above. */
export function formatSize(bytes: number, locale: string = currentLocale()): string {
  const tag = intlLocale(locale)
  const mega = bytes >= 1_000_000
  return new Intl.NumberFormat(tag, {
    style: 'unit',
    unit: mega ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: mega ? 1 : 0,
  }).format(mega ? bytes / 1_000_000 : Math.max(1, Math.round(bytes / 1000)))
}

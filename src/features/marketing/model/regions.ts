/**
 * Where marketing messages work, as the network publishes it: the business countries it serves (the ad
 * account's business country), and the subscribers' countries where they are never delivered. Names come
 * from the browser in the user's language.
 */

import { MARKETING_BUSINESS_COUNTRIES } from '../../../core/marketing/regions.ts'
import { KHMER_REGION_NAMES } from './khmer-regions.ts'

/** The business countries served (ISO 3166-1 alpha-2), as the network publishes them. */
export const SERVED_BUSINESS_COUNTRIES = MARKETING_BUSINESS_COUNTRIES

/** Subscribers in these regions never receive marketing messages (the network filters them). */
export const UNREACHED_SUBSCRIBER_REGIONS: readonly string[] = ['EU', 'GB', 'JP', 'KR', 'AU']

/**
 * A region's name in `locale` ("Mexico", "México"), or the code itself when the browser has none. Khmer names
 * come from CLDR's own table: Chromium's Intl has no Khmer and would answer in English.
 */
export function regionName(code: string, locale: string): string {
  if (locale === 'km') return KHMER_REGION_NAMES[code.toUpperCase()] ?? code
  try {
    return new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }).of(code) ?? code
  } catch {
    return code
  }
}

/** Region names joined as the language lists them ("A, B and C"), sorted in that language. */
export function regionList(codes: readonly string[], locale: string, sort = true): string {
  const names = codes.map((c) => regionName(c, locale))
  if (sort) names.sort(new Intl.Collator(locale).compare)
  if (locale === 'km') return khmerList(names)
  try {
    return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(names)
  } catch {
    return names.join(', ')
  }
}

/** CLDR's Khmer list ("A, B និង C"; two: "A និងB"), which Chromium's Intl.ListFormat lacks. */
function khmerList(names: readonly string[]): string {
  if (names.length < 2) return names.join('')
  if (names.length === 2) return `${names[0]} និង\u200b${names[1]}`
  return `${names.slice(0, -1).join(', ')} និង ${names.at(-1)}`
}

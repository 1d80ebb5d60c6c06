/**
 * Where the network offers the Marketing Message API for Messenger (its overview, "Send messages" and API
 * reference pages list the same regions): the countries of the businesses it serves, and the subscriber
 * regions it never delivers to (the network filters those itself; Pagecast only says so).
 */

/** ISO 3166-1 alpha-2 codes of the business countries served. */
export const MARKETING_BUSINESS_COUNTRIES: readonly string[] = Object.freeze([
  'AU', // Australia
  'BR', // Brazil
  'CL', // Chile
  'CO', // Colombia
  'HK', // Hong Kong
  'IN', // India
  'ID', // Indonesia
  'IL', // Israel
  'MY', // Malaysia
  'MX', // Mexico
  'NZ', // New Zealand
  'PE', // Peru
  'PH', // Philippines
  'SA', // Saudi Arabia
  'SG', // Singapore
  'TW', // Taiwan
  'TH', // Thailand
  'AE', // United Arab Emirates
  'US', // United States
  'VN', // Vietnam
])

/** Subscribers in these regions receive no marketing messages: the European Union, Japan, South Korea, Australia, the United Kingdom. */
export const MARKETING_EXCLUDED_SUBSCRIBER_COUNTRIES: readonly string[] = Object.freeze([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'JP',
  'KR',
  'AU',
  'GB',
])

/** Whether a business with this country (an ad account's `business_country_code`) can send marketing messages. */
export function marketingAvailableIn(countryCode: string | null | undefined): boolean {
  if (!countryCode) return false
  return MARKETING_BUSINESS_COUNTRIES.includes(countryCode.trim().toUpperCase())
}

/** Numbers in the Mexican Spanish style with optional decimals (spec section 1), whatever the UI language. */
const integerFormat = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 2 })
const usdFormat = new Intl.NumberFormat('es-MX', {
  style: 'currency',
  currency: 'USD',
  currencyDisplay: 'narrowSymbol',
  maximumFractionDigits: 2,
})

export function formatNumber(value: number): string {
  return integerFormat.format(value)
}

export function formatUsd(value: number): string {
  return usdFormat.format(value)
}

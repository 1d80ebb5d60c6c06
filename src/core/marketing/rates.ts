/**
 * Pagecast's estimate of what one delivered marketing message costs, per ad account currency, in the minor
 * units the network counts budgets in (cents; whole units for the currencies the network keeps without cents:
 * IDR, VND, CLP, COP, TWD). The network publishes no per-message price (it bills by auction and offers only
 * a campaign delivery estimate), so every amount shown from here is labelled an estimate ("about"); the
 * campaign's real spend is read from the network while the job sends.
 */
export const ESTIMATED_RATE_MINOR: Readonly<Record<string, number>> = {
  USD: 5,
  MXN: 85,
  BRL: 25,
  CLP: 45,
  COP: 200,
  PEN: 18,
  IDR: 750,
  PHP: 250,
  INR: 400,
  VND: 1200,
  THB: 160,
  MYR: 22,
  SGD: 7,
  HKD: 38,
  TWD: 2,
  AUD: 8,
  NZD: 8,
  AED: 18,
  SAR: 18,
  ILS: 18,
}

/** A currency outside the table is estimated at the USD rate (its minor units taken as cents). */
const FALLBACK_RATE_MINOR = ESTIMATED_RATE_MINOR.USD!

export function perMessageMinor(currency: string): number {
  return ESTIMATED_RATE_MINOR[currency.toUpperCase()] ?? FALLBACK_RATE_MINOR
}

/** The estimated cost of `count` delivered marketing messages. */
export function estimateMinor(currency: string, count: number): number {
  return perMessageMinor(currency) * Math.max(0, Math.floor(count))
}

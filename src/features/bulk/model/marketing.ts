/**
 * The marketing part of the bulk wizard (docs/product-rules.md#marketing-messages), pure: the budget the
 * owner types (major units of the ad account's currency) in the network's minor units, its checks against the
 * estimate, money in the interface language's convention, and what a send spends.
 */
import type { BudgetKind } from '../../../core/contracts/marketing.ts'

const INTL_LOCALE: Record<string, string> = { es: 'es-MX' }

/**
 * Currencies the network counts in whole units (its "offset 1" currencies: a budget of 5000 IDR is 5000, not
 * 500000); every other currency is counted in hundredths.
 */
const WHOLE_UNIT_CURRENCIES = new Set([
  'CLP',
  'COP',
  'CRC',
  'HUF',
  'ISK',
  'IDR',
  'JPY',
  'KRW',
  'PYG',
  'TWD',
  'VND',
])

/** How many decimals the network's minor unit of the currency has: 0 or 2. */
export function minorDigits(currency: string): number {
  return WHOLE_UNIT_CURRENCIES.has(currency.toUpperCase()) ? 0 : 2
}

/** An amount in minor units as money in the language's convention ("MX$34.00" in English for MXN). */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const digits = minorDigits(currency)
  const major = minor / 10 ** digits
  try {
    return new Intl.NumberFormat(INTL_LOCALE[locale] ?? locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(major)
  } catch {
    return `${major.toFixed(digits)} ${currency}`
  }
}

export type BudgetInput = { ok: true; minor: number } | { ok: false; why: 'empty' | 'invalid' | 'zero' }

/**
 * The typed budget in minor units. Latin digits with a dot or a comma as the decimal mark; no grouping, no
 * more decimals than the currency has.
 */
export function parseBudget(text: string, currency: string): BudgetInput {
  const value = text.trim().replace(/\s/g, '')
  if (!value) return { ok: false, why: 'empty' }
  const digits = minorDigits(currency)
  const match = /^(\d{1,9})(?:[.,](\d*))?$/.exec(value)
  if (!match) return { ok: false, why: 'invalid' }
  const fraction = match[2] ?? ''
  if (fraction.length > digits) return { ok: false, why: 'invalid' }
  const minor = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0')
  if (!Number.isSafeInteger(minor) || minor > 1_000_000_000) return { ok: false, why: 'invalid' }
  if (minor === 0) return { ok: false, why: 'zero' }
  return { ok: true, minor }
}

export interface BudgetState {
  kind: BudgetKind
  /** What the owner typed, in major units. */
  amount: string
}

export type BudgetVerdict =
  { ok: true; minor: number; belowEstimate: boolean } | { ok: false; why: 'empty' | 'invalid' | 'zero' }

/** A budget below the estimate warns (the send stops when it is spent); an empty, invalid or zero one refuses. */
export function budgetVerdict(
  budget: BudgetState,
  currency: string,
  estimateMinor: number | undefined,
): BudgetVerdict {
  const parsed = parseBudget(budget.amount, currency)
  if (!parsed.ok) return parsed
  return {
    ok: true,
    minor: parsed.minor,
    belowEstimate: estimateMinor !== undefined && parsed.minor < estimateMinor,
  }
}

export interface SendSummary {
  /** Free standard messages inside the window. */
  standard: number
  /** Paid marketing messages to subscribers outside it. */
  marketing: number
  /** Pagecast messages the send spends: each delivered message, standard or marketing. */
  spent: number
}

/** What a send of `count` recipients (the allowance already applied; the window's first) is made of. */
export function sendSummary(standard: number, marketing: number, count: number): SendSummary {
  const s = Math.min(standard, count)
  const m = Math.max(0, Math.min(marketing, count - s))
  return { standard: s, marketing: m, spent: s + m }
}

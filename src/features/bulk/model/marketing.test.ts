import { describe, expect, it } from 'vitest'
import { budgetVerdict, formatMoney, minorDigits, parseBudget, sendSummary } from './marketing.ts'

describe('the marketing budget', () => {
  it('takes the amount in major units and gives the network minor units', () => {
    expect(parseBudget('50', 'MXN')).toEqual({ ok: true, minor: 5000 })
    expect(parseBudget('34.5', 'MXN')).toEqual({ ok: true, minor: 3450 })
    expect(parseBudget(' 34,05 ', 'USD')).toEqual({ ok: true, minor: 3405 })
    expect(parseBudget('150000', 'IDR')).toEqual({ ok: true, minor: 150000 })
    expect(minorDigits('php')).toBe(2)
  })

  it('refuses empty, zero, negative, grouped or over-precise amounts', () => {
    expect(parseBudget('', 'MXN')).toEqual({ ok: false, why: 'empty' })
    expect(parseBudget('0', 'MXN')).toEqual({ ok: false, why: 'zero' })
    expect(parseBudget('0.00', 'MXN')).toEqual({ ok: false, why: 'zero' })
    for (const bad of ['-5', 'abc', '1,000.50', '12.345', '1e3', '10.5'])
      expect(parseBudget(bad, bad === '10.5' ? 'IDR' : 'MXN').ok).toBe(false)
  })

  it('warns when the budget is below the estimate and passes it otherwise', () => {
    expect(budgetVerdict({ kind: 'total', amount: '30' }, 'MXN', 3400)).toEqual({
      ok: true,
      minor: 3000,
      belowEstimate: true,
    })
    expect(budgetVerdict({ kind: 'daily', amount: '34' }, 'MXN', 3400)).toEqual({
      ok: true,
      minor: 3400,
      belowEstimate: false,
    })
    expect(budgetVerdict({ kind: 'daily', amount: '0' }, 'MXN', 3400)).toEqual({ ok: false, why: 'zero' })
  })

  it('shows money in the language convention with the currency', () => {
    expect(formatMoney(3400, 'MXN', 'en')).toBe('MX$34.00')
    expect(formatMoney(3400, 'MXN', 'es')).toBe('$34.00')
    expect(formatMoney(150000, 'IDR', 'id')).toMatch(/^Rp\s?150\.000$/)
  })

  it('counts what a send spends: each delivered message, standard or marketing, the window first', () => {
    expect(sendSummary(310, 38, 348)).toEqual({ standard: 310, marketing: 38, spent: 348 })
    expect(sendSummary(310, 38, 320)).toEqual({ standard: 310, marketing: 10, spent: 320 })
    expect(sendSummary(310, 38, 100)).toEqual({ standard: 100, marketing: 0, spent: 100 })
  })
})

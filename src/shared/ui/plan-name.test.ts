import { afterAll, describe, expect, it } from 'vitest'
import { activateLocale, catalogsReady } from '../../i18n/activate.ts'
import { plans } from '../../core/constants/plans.ts'
import { planName } from './plan-name.ts'

describe('planName', () => {
  afterAll(async () => {
    await activateLocale('en')
  })

  it('names the million-message plan "Millionaire", also on subscriptions stored with the old spelling', async () => {
    await activateLocale('en')
    expect(plans.map((p) => p.title)).toContain('millionaire')
    expect(planName('millionaire')).toBe('Millionaire')
    expect(planName('millionarie')).toBe('Millionaire')
    expect(planName('starter')).toBe('Starter')
  })

  it('says the trial and every plan in the owner language', async () => {
    // The plans are named in the signed-in app, which has its words.
    await activateLocale('es')
    await catalogsReady(['app'])
    expect(planName('trial')).toBe('Prueba')
    expect(planName('millionaire')).toBe('Millonario')
    for (const plan of plans) expect(planName(plan.title)).not.toBe(plan.title)
  })

  it('shows a product it does not know as stored', () => {
    expect(planName('retired plan')).toBe('retired plan')
  })
})

import { expect, it } from 'vitest'
import { jobKind } from '../contracts/marketing-core.ts'
import { DEVICE_KINDS, deviceMaySend, kindReaches, KIND_RULES } from './kinds.ts'

it('has one rule for every kind of job', () => {
  expect(Object.keys(KIND_RULES).sort()).toEqual([...jobKind.options].sort())
})

it('lets no device send a marketing job or a marketing recipient of any job', () => {
  expect(DEVICE_KINDS).not.toContain('marketing')
  for (const kind of jobKind.options) expect(deviceMaySend(kind, 'marketing')).toBe(false)
  expect(deviceMaySend('marketing', 'standard')).toBe(false)
  expect(deviceMaySend('standard', undefined)).toBe(true)
})

it('reaches a marketing recipient only in a marketing job', () => {
  expect(kindReaches('marketing', 'marketing')).toBe(true)
  expect(kindReaches('standard', 'marketing')).toBe(false)
  expect(kindReaches('optin_request', 'marketing')).toBe(false)
})

import { describe, expect, it } from 'vitest'
import { parseReferral } from './referral.ts'

describe('referral capture', () => {
  it('reads the referral and coupon codes from the landing URL', () => {
    expect(parseReferral('?referral=ana-22&coupon=WELCOME15')).toEqual({
      referral: 'ana-22',
      coupon: 'WELCOME15',
    })
    expect(parseReferral('?ref=bo')).toEqual({ referral: 'bo', coupon: undefined })
  })
  it('ignores values that are not plain codes', () => {
    expect(parseReferral('?referral=%3Cscript%3E')).toEqual({ referral: undefined, coupon: undefined })
  })
})

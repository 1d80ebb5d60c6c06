import { describe, expect, it } from 'vitest'
import { isSubscriptionState, parseLoginResponse } from './guards.ts'

const subscription = {
  access: true,
  access_type: 'trial',
  accepted_terms: false,
  facebook_id: '42',
  is_unlimited: false,
  unlimited_blocked: false,
  available_messages: 100,
  subscriptions_messages: 0,
  addons_messages: 0,
  use_branded_messages: false,
  referral: null,
}

describe('start-up answer guards', () => {
  it('accepts a subscription state as the contract describes it', () => {
    expect(isSubscriptionState(subscription)).toBe(true)
    expect(isSubscriptionState({ ...subscription, access_type: null, coupon: 'X' })).toBe(true)
  })
  it('rejects a subscription state with a wrong or missing field', () => {
    expect(isSubscriptionState({ ...subscription, access_type: 'free' })).toBe(false)
    expect(isSubscriptionState({ ...subscription, available_messages: 1.5 })).toBe(false)
    const { accepted_terms: _dropped, ...partial } = subscription
    expect(isSubscriptionState(partial)).toBe(false)
  })
  it('reads a login answer and refuses one without a token', () => {
    const user = { id: '1', facebook_id: '42', name: 'Dana', email: null, subscription }
    expect(parseLoginResponse({ data: { token: 't', user } }).data.token).toBe('t')
    expect(() => parseLoginResponse({ data: { user } })).toThrow()
  })
})
